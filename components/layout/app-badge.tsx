"use client";

import { useEffect } from "react";
import { useUnreadTotal } from "@/lib/client/chat/unread";
import { useNotificationCount } from "@/lib/client/notifications";

type BadgingNavigator = Navigator & { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/** Shows `count` on the installed app's icon (Badging API), or clears it at 0; nothing where there is no such API. */
export function showAppBadge(count: number): void {
  const nav = navigator as BadgingNavigator;
  if (typeof nav.setAppBadge !== "function" || typeof nav.clearAppBadge !== "function") return;
  // A refusal (no permission, not installed) is no failure of the page.
  void (count > 0 ? nav.setAppBadge(count) : nav.clearAppBadge()).catch(() => {});
}

/**
 * The app icon's badge (issue 44, docs/adr/0179): unread messages plus unread notifications, the two
 * counts the header shows, live with them. Renders nothing.
 */
export function AppBadge({ viewerId, unreadMessages, unreadNotifications }: { viewerId: number; unreadMessages: number; unreadNotifications?: number }) {
  const messages = useUnreadTotal(viewerId, unreadMessages);
  const { count: notifications } = useNotificationCount(unreadNotifications);
  const total = messages + notifications;
  useEffect(() => showAppBadge(total), [total]);
  return null;
}
