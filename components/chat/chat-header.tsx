"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { Avatar } from "@/components/ui/avatar";
import { ChevronLeftIcon } from "./chat-icons";
import type { DialogPartner } from "@/lib/validation/dialogs";
import styles from "./chat.module.css";
import { useChatFormat, useNow } from "./use-chat-format";

/** Back to the list, the partner (a link to their page) and their presence: online or last seen (none across a block: null). */
export function ChatHeader({
  partner,
  presence,
  typing,
}: {
  partner: DialogPartner;
  presence: { isOnline: boolean; lastOnlineTime: string | null } | null;
  typing: boolean;
}) {
  const t = useTranslations("im");
  const f = useChatFormat();
  const now = useNow();
  const name = `${partner.firstName} ${partner.lastName}`.trim();
  return (
    <header className={styles.header}>
      <Link href="/im" className={styles.back} aria-label={t("toDialogs")} title={t("toDialogs")}>
        <ChevronLeftIcon size={22} />
      </Link>
      <Link href={`/profile/${partner.id}`} className={styles.partner}>
        <span className={styles.avatarWrap}>
          <Avatar id={partner.id} firstName={partner.firstName} lastName={partner.lastName} photo={partner.photo} size={40} alt="" />
          {presence?.isOnline ? <span className={styles.onlineDot} aria-hidden="true" /> : null}
        </span>
        <span className={styles.partnerText}>
          <span className={styles.partnerName} id="chat-partner-name">
            {name}
          </span>
          {presence ? (
            <span className={styles.presence} data-testid="chat-presence" data-online={presence.isOnline || undefined}>
              {typing ? <span className={styles.typingInline}>{t("typingShort")}</span> : f.presence({ ...presence, firstName: partner.firstName, lastName: partner.lastName }, now)}
            </span>
          ) : null}
        </span>
      </Link>
    </header>
  );
}
