"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, type ReactNode } from "react";
import useSWRInfinite from "swr/infinite";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon, UsersIcon } from "@/components/ui/icons";
import { LockIcon, UserPlusIcon } from "@/components/ui/icons-more";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import { FRIENDS_FIRST_PAGE, FRIENDS_MORE, type FriendListItem, type FriendTab, type Paged } from "@/lib/validation/friends-shared";
import { PersonRow } from "./person-row";
import styles from "./friend-list.module.css";

// Pages of 3 from the API: the first shows 3 rows, each "load more" adds two pages (6 rows), as the
// spec's 3-then-+6 asks, while every request stays an ordinary page of one size.
const PAGE = FRIENDS_FIRST_PAGE;
const PAGES_PER_MORE = FRIENDS_MORE / FRIENDS_FIRST_PAGE;

const ICONS: Record<FriendTab, ReactNode> = {
  FRIEND: <UsersIcon size={28} />,
  REQUEST_FROM: <UserPlusIcon size={28} />,
  REQUEST_TO: <UserPlusIcon size={28} />,
  WATCHING: <UsersIcon size={28} />,
  SUBSCRIBED: <UsersIcon size={28} />,
  BLOCKED: <LockIcon size={28} />,
};

/** One tab's rows with load-more; revalidates whenever `epoch` changes (a relation changed somewhere). */
export function FriendList({
  status,
  initialPage,
  epoch,
  onChange,
}: {
  status: FriendTab;
  initialPage?: Paged<FriendListItem>;
  epoch: number;
  onChange: () => void;
}) {
  const t = useTranslations("friends");
  const { data, error, size, setSize, isLoading, isValidating, mutate } = useSWRInfinite<Paged<FriendListItem>>(
    (index) => `friends?${new URLSearchParams({ statusCode: status, page: String(index), size: String(PAGE) })}`,
    (path: string) => api<Paged<FriendListItem>>(path),
    { fallbackData: initialPage ? [initialPage] : undefined, parallel: true, revalidateOnFocus: true },
  );

  // Starts at 0, so a tab opened after a change (while it was hidden) refetches even inside SWR's
  // deduping window; at epoch 0 the server's (or the cache's) page is still current.
  const seen = useRef(0);
  useEffect(() => {
    if (seen.current === epoch) return;
    seen.current = epoch;
    void mutate();
  }, [epoch, mutate]);

  if (error && !data) {
    return (
      <EmptyState icon={<AlertIcon size={28} />} title={t("loadFailed")} text={t("loadFailedText")}>
        <Button variant="secondary" onClick={() => void mutate()}>
          {t("retry")}
        </Button>
      </EmptyState>
    );
  }
  if (!data) return <Spinner label={t("loading")} />;

  // Rows can move between pages while loading more (someone was added or removed); show each once.
  const seenIds = new Set<number>();
  const items = data.flatMap((p) => p.content).filter((item) => !seenIds.has(item.friendId) && seenIds.add(item.friendId));
  const total = data.at(-1)?.totalElements ?? 0;
  const loadingMore = isValidating && size > data.length;

  if (items.length === 0 && !isLoading) {
    return (
      <EmptyState icon={ICONS[status]} title={t(`empty.${status}.title`)} text={t(`empty.${status}.text`)}>
        {status === "FRIEND" || status === "SUBSCRIBED" || status === "REQUEST_TO" ? <ButtonLink href="/friends/find">{t("find")}</ButtonLink> : null}
      </EmptyState>
    );
  }

  return (
    <div className={styles.wrap}>
      <ul className={styles.list} aria-label={t(`tabs.${status}`)}>
        {items.map((item) => (
          <PersonRow key={item.friendId} person={item.account} statusCode={item.statusCode} onChange={onChange} />
        ))}
      </ul>
      {items.length < total ? (
        <div className={styles.more}>
          <Button variant="secondary" block disabled={loadingMore} onClick={() => void setSize(size + PAGES_PER_MORE)}>
            {loadingMore ? t("loading") : t("loadMore", { count: Math.min(FRIENDS_MORE, total - items.length) })}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
