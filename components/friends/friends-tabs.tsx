"use client";

import * as Tabs from "@radix-ui/react-tabs";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import useSWR, { mutate as mutateGlobal } from "swr";
import { FRIEND_REQUESTS_COUNT_KEY } from "@/components/layout/friend-requests-badge";
import { api } from "@/lib/client/api";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { FRIEND_EVENT_TYPES, FRIEND_TABS, type FriendCounts, type FriendListItem, type FriendTab, type Paged } from "@/lib/validation/friends";
import { FriendList } from "./friend-list";
import { TAB_SLUGS } from "./tab-slugs";
import styles from "./friends-tabs.module.css";

const isFriendEvent = (type: string) => (FRIEND_EVENT_TYPES as readonly string[]).includes(type);

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

  // On a phone the tab row scrolls: bring the opening tab (friends is the last one) into view.
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>('[data-state="active"]');
    if (list && active && list.scrollWidth > list.clientWidth) list.scrollLeft = active.offsetLeft - list.offsetLeft - 12;
  }, []);

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
      <Tabs.List ref={listRef} className={styles.list} aria-label={t("tabsLabel")}>
        {FRIEND_TABS.map((s) => (
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
