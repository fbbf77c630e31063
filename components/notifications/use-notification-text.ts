"use client";
import { useTranslations } from "next-intl";
import { notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import type { NotificationDto } from "@/lib/validation/notifications-shared";

export { notificationHref } from "@/lib/notification-text";

/** Who a notification shows and the sentence for its type, in the current language. */
export function useNotificationText() {
  const t = useTranslations("notifications") as unknown as NotificationsTranslate;
  return (n: NotificationDto): { name: string; sentence: string } => notificationText(t, n);
}
