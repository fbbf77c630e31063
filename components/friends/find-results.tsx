"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import type { FriendAccountSummary, FriendStatusCode } from "@/lib/validation/friends-shared";
import { PersonRow } from "./person-row";
import styles from "./find-results.module.css";

export type FoundPerson = Pick<FriendAccountSummary, "id" | "firstName" | "lastName" | "fullName" | "photo" | "city" | "country" | "age" | "isOnline"> & {
  statusCode: FriendStatusCode | null;
  mutualFriends?: number;
  /** Search results only (the account DTO's privacy flag, docs/adr/0125). */
  canMessage?: boolean;
};

/** A page of people (search results or recommendations), each with the action that fits, and the pager. */
export function FindResults({
  people,
  page,
  totalPages,
  hrefOf,
  label,
}: {
  people: FoundPerson[];
  page: number;
  totalPages: number;
  /** The address of each page (0-based), built by the server page. */
  hrefOf: Record<number, string>;
  label: string;
}) {
  const t = useTranslations("friends.search");
  return (
    <>
      <ul className={styles.list} aria-label={label}>
        {people.map((p) => (
          <PersonRow
            key={p.id}
            person={p}
            statusCode={p.statusCode}
            canMessage={p.canMessage}
            extra={p.mutualFriends ? t("mutual", { count: p.mutualFriends }) : undefined}
          />
        ))}
      </ul>
      {totalPages > 1 ? (
        <nav className={styles.pager} aria-label={t("pages")}>
          {page > 0 ? <Link href={hrefOf[page - 1]}>{t("prev")}</Link> : <span />}
          <span className={styles.pageOf}>{t("pageOf", { page: page + 1, total: totalPages })}</span>
          {page + 1 < totalPages ? <Link href={hrefOf[page + 1]}>{t("next")}</Link> : <span />}
        </nav>
      ) : null}
    </>
  );
}
