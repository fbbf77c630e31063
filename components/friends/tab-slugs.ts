import type { FriendTab } from "@/lib/validation/friends";

/** The /friends?tab= value of each tab: readable in links, stable across languages. */
export const TAB_SLUGS: Record<FriendTab, string> = {
  REQUEST_FROM: "requests",
  REQUEST_TO: "outgoing",
  WATCHING: "subscribers",
  BLOCKED: "blocked",
  SUBSCRIBED: "subscribed",
  FRIEND: "friends",
};

export function tabOfSlug(slug: string | undefined): FriendTab | null {
  const hit = Object.entries(TAB_SLUGS).find(([, s]) => s === slug);
  return hit ? (hit[0] as FriendTab) : null;
}
