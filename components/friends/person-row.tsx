"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import { Avatar } from "@/components/ui/avatar";
import { GlobeIcon } from "@/components/ui/icons";
import type { FriendAccountSummary, FriendStatusCode } from "@/lib/validation/friends-shared";
import { BirthdayMark } from "./birthday-mark";
import { RelationActions } from "./relation-actions";
import styles from "./person-row.module.css";

/** One person with the friend actions that fit the viewer's relation (friends tabs, friends search). */
export function PersonRow({
  person,
  statusCode,
  onChange,
  extra,
  canMessage,
  fediverseAddress,
}: {
  person: Pick<FriendAccountSummary, "id" | "firstName" | "lastName" | "fullName" | "photo" | "city" | "country" | "age" | "isOnline"> & { birthday?: string | null };
  statusCode: FriendStatusCode | null;
  onChange?: (next: FriendStatusCode | null) => void;
  /** A line under the place and age (e.g. the number of mutual friends). */
  extra?: ReactNode;
  /** Whether the viewer may write to them (their privacy settings, docs/adr/0125), when the list knows it. */
  canMessage?: boolean;
  /** A person of another server (issue 43): their address (user@server), shown under the name; no friendship or messages. */
  fediverseAddress?: string;
}) {
  const t = useTranslations("friends");
  const place = [person.city, person.country].filter(Boolean).join(", ");
  const meta = [place, person.age !== null ? t("age", { age: person.age }) : ""].filter(Boolean).join(" · ");
  return (
    <li className={styles.row} data-testid="person-row" data-account-id={person.id}>
      <Link href={`/profile/${person.id}`} className={styles.who}>
        <span className={styles.photo}>
          <Avatar id={person.id} firstName={person.firstName} lastName={person.lastName} photo={person.photo} size={56} alt="" />
          {person.isOnline ? <span className={styles.online} role="img" aria-label={t("online")} /> : null}
        </span>
        <span className={styles.text}>
          <span className={styles.name}>{person.fullName}</span>
          {fediverseAddress ? (
            <span className={`${styles.meta} ${styles.address}`} data-testid="person-fediverse" title={t("remoteMarker")}>
              <GlobeIcon size={14} />
              <span className="visually-hidden">{t("remoteMarker")}: </span>
              <span translate="no">@{fediverseAddress}</span>
            </span>
          ) : null}
          {meta ? <span className={styles.meta}>{meta}</span> : null}
          {extra ? <span className={styles.meta}>{extra}</span> : null}
          <BirthdayMark birthday={person.birthday} />
        </span>
      </Link>
      <div className={styles.actions}>
        <RelationActions
          accountId={person.id}
          firstName={person.firstName}
          statusCode={statusCode}
          onChange={onChange}
          compact
          privacy={fediverseAddress ? { canMessage: false, canRequestFriend: false } : canMessage === undefined ? undefined : { canMessage, canRequestFriend: true }}
          remote={fediverseAddress !== undefined}
        />
      </div>
    </li>
  );
}
