"use client";

import { usePathname } from "next/navigation";
import { notify } from "@/lib/client/notify";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { isNotificationDto } from "@/lib/validation/notifications-shared";
import { useNotificationText } from "./use-notification-text";

/**
 * A toast for each arriving notification (queued, bottom-right, spec section 9), except a MESSAGE of
 * the dialog that is open right now. A frame without a notification in it is ignored (spec section 4).
 */
export function LiveNotificationToasts() {
  const pathname = usePathname();
  const text = useNotificationText();
  useRealtimeEvent("NOTIFICATION", (event) => {
    const n = event.data;
    if (!isNotificationDto(n)) return;
    if (n.notificationType === "MESSAGE" && n.data.dialogId && pathname === `/im/${n.data.dialogId}`) return;
    const { name, sentence } = text(n);
    notify({ status: "response", message: `${name}: ${sentence}` });
  });
  return null;
}
