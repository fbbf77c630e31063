"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import type { DialogDto } from "@/lib/validation/dialogs";
import { BellOffIcon, ChevronLeftIcon } from "./chat-icons";
import { GroupAvatar } from "./group-avatar";
import styles from "./chat.module.css";
import group from "./group.module.css";

/**
 * A group's header (issue 41): back to the list, its photo (or collage) and title, «N участников» (or
 * who types), the muted bell; pressing it opens the members panel.
 */
export function GroupHeader({ dialog, typingText, muted, onOpenMembers }: { dialog: DialogDto; typingText: string; muted: boolean; onOpenMembers: () => void }) {
  const t = useTranslations("group");
  const tIm = useTranslations("im");
  const title = dialog.title ?? "";
  return (
    <header className={styles.header}>
      <Link href="/im" className={styles.back} aria-label={tIm("toDialogs")} title={tIm("toDialogs")}>
        <ChevronLeftIcon size={22} />
      </Link>
      <button type="button" className={`${styles.partner} ${group.headerButton}`} onClick={onOpenMembers} aria-haspopup="dialog" aria-label={t("openMembers", { title })} data-testid="group-header">
        <span className={styles.avatarWrap}>
          <GroupAvatar photo={dialog.photo} collage={dialog.collage} title={title} size={40} />
        </span>
        <span className={styles.partnerText}>
          <span className={group.headerTitle}>
            <span className={styles.partnerName} id="chat-partner-name" data-testid="group-title">
              {title}
            </span>
            {muted ? (
              <span className={group.headerMuted} role="img" aria-label={t("muted")} title={t("muted")} data-testid="group-muted">
                <BellOffIcon size={15} />
              </span>
            ) : null}
          </span>
          <span className={styles.presence} data-testid="group-members-count">
            {typingText ? <span className={styles.typingInline}>{typingText}…</span> : dialog.left ? t("notMemberLine") : t("members", { count: dialog.membersCount })}
          </span>
        </span>
      </button>
    </header>
  );
}
