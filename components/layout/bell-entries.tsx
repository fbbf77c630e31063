"use client";

import { FriendRequestAnswer } from "@/components/notifications/friend-request-answer";
import { NotificationEntry } from "@/components/notifications/notification-entry";
import entry from "@/components/notifications/notifications.module.css";
import type { NotificationDto } from "@/lib/validation/notifications-shared";

/**
 * The entries of the open bell panel: their texts, times, links and the friend-request answers. A module
 * of its own, loaded when the panel first opens (with Radix's popover), so no page carries it in its first
 * load (docs/adr/0143).
 */
export function BellEntries({ items, onOpen }: { items: NotificationDto[]; onOpen: () => void }) {
  return (
    <ul className={entry.list}>
      {items.map((n) => (
        <li key={n.id}>
          <NotificationEntry n={n} onOpen={onOpen} />
          <FriendRequestAnswer n={n} />
        </li>
      ))}
    </ul>
  );
}
