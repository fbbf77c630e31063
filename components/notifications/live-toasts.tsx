"use client";

import { useTranslations } from "next-intl";
import { usePathname } from "next/navigation";
import { notify } from "@/lib/client/notify";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import type { NotificationsTranslate } from "@/lib/notification-text";
import { isNotificationDto } from "@/lib/validation/notifications-shared";

/**
 * A toast for each arriving notification (queued, bottom-right, spec section 9), except a MESSAGE of
 * the dialog that is open right now. A frame without a notification in it is ignored (spec section 4).
 * The sentences (lib/notification-text.ts) load with the first notification, not with every page
 * (docs/adr/0151); toasts keep their order.
 */
export function LiveNotificationToasts() {
  const pathname = usePathname();
  const t = useTranslations("notifications") as unknown as NotificationsTranslate;
  useRealtimeEvent("NOTIFICATION", (event) => {
    const n = event.data;
    if (!isNotificationDto(n)) return;
    if (n.notificationType === "MESSAGE" && n.data.dialogId && pathname === `/im/${n.data.dialogId}`) return;
    void import("@/lib/notification-text").then(({ notificationText }) => {
      const { name, sentence } = notificationText(t, n);
      notify({ status: "response", message: `${name}: ${sentence}` });
    });
  });
  return null;
}
