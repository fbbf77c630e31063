"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ReportDialog } from "@/components/report/report-dialog";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { AlertIcon, MoreIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { isChangeable } from "@/lib/client/chat/timeline";
import type { MessageDto } from "@/lib/validation/dialogs";
import { DoubleTickIcon, EditIcon, ReplyIcon, TrashIcon } from "./chat-icons";
import report from "@/components/report/report.module.css";
import styles from "./chat.module.css";

/** What a message's menu can ask of the chat (one object for every bubble, so bubbles stay memoised). */
export type MessageActions = {
  viewerId: number;
  /** The viewer may write here now (a block or privacy turns reply and edit off). */
  canWrite: boolean;
  reply: (message: MessageDto) => void;
  edit: (message: MessageDto) => void;
  askDelete: (message: MessageDto) => void;
  jumpTo: (messageId: number) => void;
  /** In a group: who read the viewer's own message (issue 41). */
  showReaders?: (message: MessageDto) => void;
};

/**
 * A message's own ⋯ menu (issue 27, docs/adr/0129): Reply, Edit (the author, within 24 hours), Delete,
 * and for the partner's messages Report (issue 26). Radix's menu: Enter, Space or ArrowDown opens it from
 * the keyboard, arrows move, Escape closes; on touch screens the button is always shown.
 */
export function MessageMenu({ message, actions }: { message: MessageDto; actions: MessageActions }) {
  const t = useTranslations("im");
  const tr = useTranslations("report");
  const tg = useTranslations("group");
  const [reporting, setReporting] = useState(false);
  const mine = message.authorId === actions.viewerId;
  const canEdit = mine && actions.canWrite && isChangeable(message);
  return (
    <>
      <LazyMenu trigger={{ className: report.more, "aria-label": t("messageActions"), children: <MoreIcon size={18} />, "data-testid": `message-menu-${message.id}` }}>
        {(Menu) => (
          <Menu.Portal>
            <Menu.Content className={menu.content} align={mine ? "end" : "start"} sideOffset={4}>
              {actions.canWrite && !message.deleted ? (
                <Menu.Item className={menu.item} onSelect={() => actions.reply(message)}>
                  <ReplyIcon size={18} />
                  <span className={menu.itemText}>{t("reply")}</span>
                </Menu.Item>
              ) : null}
              {canEdit ? (
                <Menu.Item className={menu.item} onSelect={() => actions.edit(message)}>
                  <EditIcon size={18} />
                  <span className={menu.itemText}>{t("edit")}</span>
                </Menu.Item>
              ) : null}
              {mine && actions.showReaders && !message.deleted ? (
                <Menu.Item className={menu.item} onSelect={() => actions.showReaders?.(message)} data-testid="show-readers">
                  <DoubleTickIcon size={18} />
                  <span className={menu.itemText}>{tg("readers")}</span>
                </Menu.Item>
              ) : null}
              <Menu.Item className={menu.item} onSelect={() => actions.askDelete(message)}>
                <TrashIcon size={18} />
                <span className={menu.itemText}>{t("delete")}</span>
              </Menu.Item>
              {!mine && !message.deleted ? (
                <Menu.Item className={menu.item} onSelect={() => setReporting(true)}>
                  <AlertIcon size={18} />
                  <span className={menu.itemText}>{tr("action")}</span>
                </Menu.Item>
              ) : null}
            </Menu.Content>
          </Menu.Portal>
        )}
      </LazyMenu>
      {!mine ? <ReportDialog target={{ type: "MESSAGE", id: message.id }} open={reporting} onOpenChange={setReporting} /> : null}
    </>
  );
}

/**
 * «Удалить сообщение?»: for oneself always; for both (a box, off by default) only for the author's own
 * message within 24 hours. The confirm button says which of the two it does.
 */
export function DeleteMessageDialog({
  message,
  viewerId,
  moderator = false,
  inGroup = false,
  onClose,
  onDelete,
}: {
  message: MessageDto | null;
  viewerId: number;
  /** A group's owner or admin: may delete anyone's message for everyone, at any time (issue 41). */
  moderator?: boolean;
  /** A group's message: "for everyone" means its members. */
  inGroup?: boolean;
  onClose: () => void;
  onDelete: (message: MessageDto, forEveryone: boolean) => Promise<void>;
}) {
  const t = useTranslations("im");
  const tg = useTranslations("group");
  const boxId = useId();
  const [forEveryone, setForEveryone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const both = !!message && !message.deleted && ((message.authorId === viewerId && isChangeable(message)) || moderator);
  const everyone = both && forEveryone;

  async function confirm() {
    if (!message) return;
    setBusy(true);
    setFailure(null);
    try {
      await onDelete(message, everyone);
      setForEveryone(false);
      onClose();
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : t("changeFailed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      open={!!message}
      onOpenChange={(open) => {
        if (open) return;
        setForEveryone(false);
        setFailure(null);
        onClose();
      }}
      title={t("deleteTitle")}
      text={both ? (inGroup ? tg("deleteTextEveryone") : t("deleteTextEveryone")) : t("deleteText")}
      cancelLabel={t("cancel")}
      confirmLabel={everyone ? t("deleteForEveryone") : t("deleteForMe")}
      onConfirm={() => void confirm()}
      busy={busy}
      failure={failure}
    >
      {both ? (
        <label className={`${report.option} ${styles.deleteOption}`} htmlFor={boxId}>
          <input id={boxId} type="checkbox" checked={forEveryone} onChange={(e) => setForEveryone(e.target.checked)} data-testid="delete-for-everyone" />
          <span>{t("deleteForEveryone")}</span>
        </label>
      ) : null}
    </ConfirmDialog>
  );
}
