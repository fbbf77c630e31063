"use client";

import * as Tabs from "@radix-ui/react-tabs";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import useSWR, { mutate as mutateGlobal } from "swr";
import { FRIEND_REQUESTS_COUNT_KEY } from "@/components/layout/friend-requests-badge";
import { api } from "@/lib/client/api";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { FRIEND_EVENT_TYPES, FRIEND_TABS, type FriendCounts, type FriendListItem, type FriendTab, type Paged } from "@/lib/validation/friends-shared";
import { FriendList } from "./friend-list";
import { TAB_SLUGS } from "./tab-slugs";
import styles from "./friends-tabs.module.css";

const isFriendEvent = (type: string) => (FRIEND_EVENT_TYPES as readonly string[]).includes(type);

// Below this width the tab strip scrolls sideways (friends-tabs.module.css).
const PHONE_QUERY = "(max-width: 600px)";
const subscribePhone = (listener: () => void) => {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
};
const isPhone = () => window.matchMedia(PHONE_QUERY).matches;

/**
 * On a phone only the first two or three tabs fit (issue 14 item 9): friends come first, and incoming
 * requests before them when there are any; the rest follow in the desktop order.
 */
export function phoneTabOrder(pendingRequests: number): FriendTab[] {
  const lead: FriendTab[] = pendingRequests > 0 ? ["REQUEST_FROM", "FRIEND"] : ["FRIEND", "REQUEST_FROM"];
  return [...lead, ...FRIEND_TABS.filter((s) => !lead.includes(s))];
}

/**
 * The six tabs of /friends (spec section 2) with their counts. The server rendered the counts and the
 * first page of the opening tab; SWR keeps them fresh. Any change of a relation, ours or the other
 * person's (a friend event on the socket), refreshes the counts and the lists at once.
 */
export function FriendsTabs({
  initialTab,
  initialCounts,
  initialPage,
}: {
  initialTab: FriendTab;
  initialCounts: FriendCounts;
  initialPage: Paged<FriendListItem>;
}) {
  const t = useTranslations("friends");
  const [tab, setTab] = useState<FriendTab>(initialTab);
  // Bumped on every relation change; each list revalidates when it sees a new value.
  const [epoch, setEpoch] = useState(0);
  const { data: counts = initialCounts, mutate: refreshCounts } = useSWR<FriendCounts>("friends/counts", (path: string) => api<FriendCounts>(path), {
    fallbackData: initialCounts,
    revalidateOnMount: false,
  });

  const refresh = useCallback(() => {
    setEpoch((e) => e + 1);
    void refreshCounts();
    void mutateGlobal(FRIEND_REQUESTS_COUNT_KEY);
  }, [refreshCounts]);

  const phone = useSyncExternalStore(subscribePhone, isPhone, () => false);
  const order = phone ? phoneTabOrder(counts.REQUEST_FROM) : FRIEND_TABS;

  // On a phone the tab row scrolls: the edges fade where more tabs hide, so the strip shows it scrolls.
  const listRef = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });
  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const max = list.scrollWidth - list.clientWidth;
    setMore({ start: list.scrollLeft > 2, end: max - list.scrollLeft > 2 });
  }, []);
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    // The opening tab in view (it may be a later one, from ?tab=).
    const active = list.querySelector<HTMLElement>('[data-state="active"]');
    if (active && list.scrollWidth > list.clientWidth) {
      const box = list.getBoundingClientRect();
      const tab = active.getBoundingClientRect();
      if (tab.right > box.right || tab.left < box.left) list.scrollLeft += tab.left - box.left - 12;
    }
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [measure, phone]);

  useRealtimeEvent("*", (event) => {
    if (isFriendEvent(event.type)) refresh();
  });

  function select(value: string) {
    const next = value as FriendTab;
    setTab(next);
    // Keeps the tab on reload and in shared links without a navigation (Next syncs useSearchParams).
    window.history.replaceState(null, "", `?tab=${TAB_SLUGS[next]}`);
  }

  return (
    <Tabs.Root value={tab} onValueChange={select} className={styles.root}>
      <Tabs.List
        ref={listRef}
        className={styles.list}
        aria-label={t("tabsLabel")}
        data-more-start={more.start || undefined}
        data-more-end={more.end || undefined}
        onScroll={measure}
      >
        {order.map((s) => (
          <Tabs.Trigger key={s} value={s} className={styles.trigger} data-testid={`friends-tab-${TAB_SLUGS[s]}`}>
            <span>{t(`tabs.${s}`)}</span>
            <span className={styles.count} data-testid="tab-count">
              {counts[s]}
            </span>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {FRIEND_TABS.map((s) => (
        <Tabs.Content key={s} value={s} className={styles.panel}>
          <FriendList status={s} initialPage={s === initialTab ? initialPage : undefined} epoch={epoch} onChange={refresh} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
