"use client";

// The tabs and lists of who reacted (components/post/who-reacted.tsx), loaded when the dialog first opens:
// Radix Tabs, SWR's infinite pages and the reactors' schema module stay out of every feed's first load.

import * as Tabs from "@radix-ui/react-tabs";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import useSWRInfinite from "swr/infinite";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import Link from "@/components/ui/link";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import type { Paged } from "@/lib/validation/post";
import { REACTORS_PAGE_SIZE, type ReactorDto } from "@/lib/validation/post-reactors";
import { REACTIONS, type ReactionType } from "@/lib/validation/reactions";
import type { ReactionCount } from "@/lib/validation/post";
import { ReactionImage } from "./reaction-image";
import styles from "./who-reacted.module.css";

const TITLES = new Map<string, { ru: string; en: string }>(REACTIONS.map((r) => [r.id, r.title]));
const ALL = "all";

/** GET post/{id}/reactions pages of one tab, one more on scroll or «more» (issue 27, ADR 0131). */
function useReactors(postId: number, type: ReactionType | null, active: boolean) {
  const swr = useSWRInfinite<Paged<ReactorDto>>(
    (index, previous) => {
      if (!active) return null;
      if (previous && previous.number + 1 >= previous.totalPages) return null;
      const q = new URLSearchParams({ page: String(index), size: String(REACTORS_PAGE_SIZE), ...(type ? { reactionType: type } : {}) });
      return `post/${postId}/reactions?${q}`;
    },
    (path: string) => api<Paged<ReactorDto>>(path),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  const pages = swr.data ?? [];
  const last = pages.at(-1);
  const seen = new Set<number>();
  const people = pages.flatMap((p) => p.content).filter((r) => (seen.has(r.account.id) ? false : (seen.add(r.account.id), true)));
  const reachedEnd = last !== undefined && last.number + 1 >= last.totalPages;
  const loading = swr.isLoading || (swr.size > 0 && pages.length < swr.size && !swr.error);
  return { people, reachedEnd, loading, error: swr.error as unknown, more: () => void swr.setSize(swr.size + 1) };
}

function ReactorList({ postId, type, active }: { postId: number; type: ReactionType | null; active: boolean }) {
  const t = useTranslations("post.whoReacted");
  const locale = useLocale() === "en" ? "en" : "ru";
  const { people, reachedEnd, loading, error, more } = useReactors(postId, type, active);
  const sentinel = useRef<HTMLDivElement>(null);

  // The next page loads when the end of the list scrolls into view (the button stays for keyboards).
  useEffect(() => {
    const node = sentinel.current;
    if (!node || reachedEnd || loading || error) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && more(), { rootMargin: "120px" });
    observer.observe(node);
    return () => observer.disconnect();
  }, [reachedEnd, loading, error, more, people.length]);

  if (!active) return null;
  return (
    <div className={styles.listWrap}>
      {people.length === 0 && !loading && !error ? <p className={styles.note}>{t("empty")}</p> : null}
      <ul className={styles.list} data-testid="who-reacted-list">
        {people.map((r) => {
          const name = `${r.account.firstName} ${r.account.lastName}`;
          return (
            <li key={r.account.id} className={styles.person}>
              <Link href={`/profile/${r.account.id}`} className={styles.who}>
                <Avatar id={r.account.id} firstName={r.account.firstName} lastName={r.account.lastName} photo={r.account.photo} size={40} alt="" />
                <span className={styles.name}>
                  {name}
                  {r.isFriend ? <span className={styles.friend}>{t("friend")}</span> : null}
                </span>
              </Link>
              <span className={styles.reaction} title={TITLES.get(r.reactionType)?.[locale]}>
                <ReactionImage type={r.reactionType} size={22} lazy />
                <span className="visually-hidden">{TITLES.get(r.reactionType)?.[locale]}</span>
              </span>
            </li>
          );
        })}
      </ul>
      {error ? <p className={styles.note} role="alert">{t("failed")}</p> : null}
      {loading ? (
        <div className={styles.loading}>
          <Spinner label={t("loading")} />
        </div>
      ) : null}
      {!reachedEnd && !loading && people.length > 0 ? (
        <div ref={sentinel} className={styles.more}>
          <Button variant="ghost" onClick={more}>
            {t("more")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The dialog's body: a tab for all and one per reaction type, each paging through GET post/{id}/reactions. */
export function WhoReactedTabs({ postId, total, counts }: { postId: number; total: number; counts: ReactionCount[] }) {
  const t = useTranslations("post.whoReacted");
  const locale = useLocale() === "en" ? "en" : "ru";
  const [tab, setTab] = useState<string>(ALL);
  return (
    <Tabs.Root value={tab} onValueChange={setTab} className={styles.tabs}>
      <Tabs.List className={styles.tabList} aria-label={t("tabs")}>
        <Tabs.Trigger value={ALL} className={styles.tab}>
          {t("all")} <span className={styles.tabCount}>{total}</span>
        </Tabs.Trigger>
        {counts.map(({ reactionType, count }) => (
          <Tabs.Trigger
            key={reactionType}
            value={reactionType}
            className={styles.tab}
            aria-label={t("tab", { title: TITLES.get(reactionType)?.[locale] ?? reactionType, count })}
            data-reaction={reactionType}
          >
            <ReactionImage type={reactionType} size={20} />
            <span className={styles.tabCount}>{count}</span>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={ALL} className={styles.panel}>
        <ReactorList postId={postId} type={null} active={tab === ALL} />
      </Tabs.Content>
      {counts.map(({ reactionType }) => (
        <Tabs.Content key={reactionType} value={reactionType} className={styles.panel}>
          <ReactorList postId={postId} type={reactionType} active={tab === reactionType} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
