// Types of the outbox events a relation change appends for the other account (spec section 4), in a
// module of their own: the top bar's request badge listens for them on every page and needs nothing else
// of friends-shared.ts (docs/adr/0151).
export const FRIEND_EVENT_TYPES = [
  "FRIEND_REQUEST",
  "FRIEND_APPROVE",
  "FRIEND_SUBSCRIBE",
  "FRIEND_BLOCKED",
  "FRIEND_UNBLOCKED",
  "FRIEND_REMOVED",
] as const;
export type FriendEventType = (typeof FRIEND_EVENT_TYPES)[number];
