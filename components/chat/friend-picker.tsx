"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import type { FriendAccountSummary, FriendListItem, Paged } from "@/lib/validation/friends-shared";
import styles from "./group.module.css";

/** Friends are read in pages of this many, at most FRIEND_PAGES of them (a group holds 500 people). */
const FRIEND_PAGE = 100;
const FRIEND_PAGES = 5;

/** The viewer's friends (GET friends?statusCode=FRIEND), all pages up to FRIEND_PAGE × FRIEND_PAGES. */
export function useFriends(): { friends: FriendAccountSummary[] | null; failed: boolean } {
  const [friends, setFriends] = useState<FriendAccountSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const all: FriendAccountSummary[] = [];
      for (let page = 0; page < FRIEND_PAGES; page += 1) {
        const query = new URLSearchParams({ statusCode: "FRIEND", page: String(page), size: String(FRIEND_PAGE) });
        const answer = await api<Paged<FriendListItem>>(`friends?${query}`);
        all.push(...answer.content.map((item) => item.account));
        if (page + 1 >= answer.totalPages) break;
      }
      if (!cancelled) setFriends(all);
    })().catch((err: unknown) => {
      console.error("loading friends failed", err);
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return { friends, failed };
}

/**
 * Friends to pick for a conversation: a filter box (first or last name) and a list of checkboxes;
 * `exclude` leaves out those already in it.
 */
export function FriendPicker({ picked, onChange, exclude }: { picked: number[]; onChange: (ids: number[]) => void; exclude?: ReadonlySet<number> }) {
  const t = useTranslations("group");
  const { friends, failed } = useFriends();
  const [filter, setFilter] = useState("");
  const filterId = useId();
  const available = useMemo(() => (friends ?? []).filter((f) => !exclude?.has(f.id)), [friends, exclude]);
  const shown = useMemo(() => {
    const q = filter.trim().toLocaleLowerCase();
    if (!q) return available;
    return available.filter((f) => `${f.firstName} ${f.lastName}`.toLocaleLowerCase().includes(q) || `${f.lastName} ${f.firstName}`.toLocaleLowerCase().includes(q));
  }, [available, filter]);
  const chosen = new Set(picked);

  return (
    <div className={styles.picker} data-testid="friend-picker">
      <label htmlFor={filterId} className={styles.fieldLabel}>
        {t("filterLabel")}
      </label>
      <input
        id={filterId}
        className={styles.input}
        type="search"
        value={filter}
        placeholder={t("filterPlaceholder")}
        onChange={(e) => setFilter(e.target.value)}
        autoComplete="off"
      />
      <p className={styles.pickedCount} aria-live="polite" data-testid="picked-count">
        {t("picked", { count: picked.length })}
      </p>
      {failed ? (
        <p className={styles.note} role="alert">
          {t("friendsFailed")}
        </p>
      ) : friends === null ? (
        <div className={styles.loading}>
          <Spinner label={t("pickLabel")} />
        </div>
      ) : friends.length === 0 ? (
        <p className={styles.note}>{t("noFriends")}</p>
      ) : available.length === 0 ? (
        <p className={styles.note}>{t("allAdded")}</p>
      ) : shown.length === 0 ? (
        <p className={styles.note}>{t("noMatches")}</p>
      ) : (
        <ul className={styles.people} aria-label={t("pickLabel")}>
          {shown.map((f) => {
            const name = `${f.firstName} ${f.lastName}`.trim();
            const on = chosen.has(f.id);
            return (
              <li key={f.id}>
                <label className={on ? `${styles.person} ${styles.personOn}` : styles.person} data-testid="pick-friend">
                  <input type="checkbox" checked={on} onChange={() => onChange(on ? picked.filter((id) => id !== f.id) : [...picked, f.id])} />
                  <Avatar id={f.id} firstName={f.firstName} lastName={f.lastName} photo={f.photo} size={36} alt="" />
                  <span className={styles.personName}>{name}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
