"use client";

import { useTranslations } from "next-intl";
import useSWR from "swr";
import { api } from "@/lib/client/api";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { FRIEND_EVENT_TYPES } from "@/lib/validation/friend-events";
import styles from "./friend-requests-badge.module.css";

/** The SWR key of the incoming-requests count; friend actions on any page revalidate it. */
export const FRIEND_REQUESTS_COUNT_KEY = "friends/count";

const isFriendEvent = (type: string) => (FRIEND_EVENT_TYPES as readonly string[]).includes(type);

/**
 * VK's red counter on "Friends" (issue 14 item 3): how many incoming friend requests wait, live. Any
 * friend event on the socket (a request arriving, one withdrawn, our own approval from another tab)
 * re-reads the count; nothing shows when it is zero.
 */
export function FriendRequestsBadge({ variant, initial }: { variant: "sidebar" | "bar"; initial?: number }) {
  const t = useTranslations("nav");
  // `initial`, the count the server rendered the page with, saves the first read (docs/adr/0143).
  const { data, mutate } = useSWR<{ count: number }>(FRIEND_REQUESTS_COUNT_KEY, (path: string) => api<{ count: number }>(path), {
    revalidateOnFocus: true,
    ...(initial === undefined ? {} : { fallbackData: { count: initial }, revalidateOnMount: false }),
  });
  useRealtimeEvent("*", (event) => {
    if (isFriendEvent(event.type)) void mutate();
  });
  const count = data?.count ?? 0;
  if (count <= 0) return null;
  return (
    <span className={`${styles.badge} ${styles[variant]}`} data-testid="friend-requests-badge">
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="visually-hidden">{t("friendRequestsCount", { count })}</span>
    </span>
  );
}
