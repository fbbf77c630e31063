"use client";

import { OutboxSender } from "@/components/chat/outbox-sender";
import { AppBadge } from "./app-badge";

/** Loaded by device-work.tsx after the page. */
export function DeviceWorkNow({ viewerId, unreadMessages, unreadNotifications }: { viewerId: number; unreadMessages: number; unreadNotifications?: number }) {
  return (
    <>
      <AppBadge viewerId={viewerId} unreadMessages={unreadMessages} unreadNotifications={unreadNotifications} />
      <OutboxSender viewerId={viewerId} />
    </>
  );
}
