"use client";

import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { MoreIcon } from "@/components/ui/icons";
import Link from "@/components/ui/link";
import { Spinner } from "@/components/ui/spinner";
import { FormAlert } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { MembersState } from "@/lib/client/chat/use-group";
import type { DialogDto, GroupMemberDto } from "@/lib/validation/dialogs";
import type { GroupRole } from "@/lib/validation/dialogs-shared";
import { FriendPicker } from "./friend-picker";
import { GroupModal } from "./group-modal";
import { GroupSettings, useFailureText } from "./group-settings";
import styles from "./group.module.css";

type Confirm = { kind: "remove" | "owner"; member: GroupMemberDto } | { kind: "leave" } | null;

/**
 * The members panel of a group (issue 41), opened from its header: the photo, title and notifications
 * (GroupSettings), the members with their roles; adding friends; and, by role, removing people (owner and
 * admins, never the owner), making and unmaking admins and handing ownership on (the owner), leaving.
 * Confirmations are asked inside the panel (a modal above the modal would sit under the top layer).
 */
export function MembersPanel({
  open,
  onClose,
  dialog,
  members,
  viewerId,
  onReloadMembers,
  onApplied,
  muted,
}: {
  open: boolean;
  onClose: () => void;
  dialog: DialogDto;
  members: MembersState;
  viewerId: number;
  onReloadMembers: () => void;
  onApplied: (next: DialogDto | null, membersChanged?: boolean) => void;
  muted: boolean;
}) {
  const t = useTranslations("group");
  const failureText = useFailureText();
  const [view, setView] = useState<"list" | "add">("list");
  const [picked, setPicked] = useState<number[]>([]);
  const [openMenu, setOpenMenu] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const role = dialog.left ? null : dialog.role;
  const present = useMemo(() => new Set(members.list.map((m) => m.id)), [members.list]);

  function close() {
    if (busy) return;
    setView("list");
    setPicked([]);
    setOpenMenu(null);
    setConfirm(null);
    setFailure(null);
    onClose();
  }

  async function run(call: () => Promise<unknown>, membersChanged: boolean, done?: string) {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await call();
      onApplied(answer as DialogDto | null, membersChanged);
      setConfirm(null);
      setOpenMenu(null);
      if (done) notify({ status: "success", message: done });
      return true;
    } catch (err) {
      setFailure(failureText(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const setRole = (member: GroupMemberDto, next: GroupRole) =>
    run(() => api<DialogDto>(`dialogs/${dialog.id}/members/${member.id}`, { method: "PUT", body: { role: next } }), true);

  async function add() {
    const count = picked.length;
    const ok = await run(() => api<DialogDto>(`dialogs/${dialog.id}/members`, { method: "POST", body: { accountIds: picked } }), true, t("added", { count }));
    if (ok) {
      setPicked([]);
      setView("list");
    }
  }

  const nameOf = (m: GroupMemberDto) => `${m.firstName} ${m.lastName}`.trim();
  const title = view === "add" ? t("addTitle") : t("membersTitle");

  let body;
  let footer = null;
  if (confirm) {
    const text =
      confirm.kind === "leave"
        ? role === "OWNER"
          ? t("leaveOwnerText")
          : t("leaveText", { title: dialog.title ?? "" })
        : confirm.kind === "remove"
          ? t("removeText", { name: nameOf(confirm.member) })
          : t("makeOwnerText", { name: nameOf(confirm.member) });
    const heading = confirm.kind === "leave" ? t("leaveTitle") : confirm.kind === "remove" ? t("removeTitle", { name: nameOf(confirm.member) }) : t("makeOwnerTitle", { name: nameOf(confirm.member) });
    body = (
      <div className={styles.confirm} role="alertdialog" aria-label={heading} data-testid="group-confirm">
        <p className={styles.confirmTitle}>{heading}</p>
        <p className={styles.confirmText}>{text}</p>
        {failure ? <FormAlert>{failure}</FormAlert> : null}
      </div>
    );
    footer = (
      <>
        <Button variant="ghost" onClick={() => {
          setConfirm(null);
          setFailure(null);
        }} disabled={busy}>
          {t("cancel")}
        </Button>
        <Button
          className={styles.danger}
          disabled={busy}
          data-testid="group-confirm-button"
          onClick={() => {
            if (confirm.kind === "leave") void run(() => api(`dialogs/${dialog.id}/members/${viewerId}`, { method: "DELETE" }), false).then((ok) => ok && close());
            else if (confirm.kind === "remove") void run(() => api(`dialogs/${dialog.id}/members/${confirm.member.id}`, { method: "DELETE" }), true);
            else void setRole(confirm.member, "OWNER");
          }}
        >
          {confirm.kind === "leave" ? t("leaveConfirm") : confirm.kind === "remove" ? t("remove") : t("handOver")}
        </Button>
      </>
    );
  } else if (view === "add") {
    body = (
      <>
        <FriendPicker picked={picked} onChange={setPicked} exclude={present} />
        {failure ? <FormAlert>{failure}</FormAlert> : null}
      </>
    );
    footer = (
      <>
        <Button variant="ghost" onClick={() => {
          setView("list");
          setPicked([]);
          setFailure(null);
        }} disabled={busy}>
          {t("cancel")}
        </Button>
        <Button onClick={() => void add()} disabled={busy || picked.length === 0} data-testid="add-members-confirm">
          {busy ? t("adding") : t("addConfirm", { count: picked.length })}
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <GroupSettings dialog={dialog} muted={muted} onApplied={(next) => onApplied(next)} />
        <div className={styles.membersHead}>
          <h3 className={styles.membersCount}>{t("members", { count: dialog.membersCount })}</h3>
          {role ? (
            <Button variant="secondary" onClick={() => setView("add")} data-testid="add-members">
              {t("add")}
            </Button>
          ) : null}
        </div>
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        {dialog.left ? (
          <p className={styles.note}>{t("notMemberLine")}</p>
        ) : members.state === "loading" && members.list.length === 0 ? (
          <div className={styles.loading}>
            <Spinner label={t("membersTitle")} />
          </div>
        ) : members.state === "error" && members.list.length === 0 ? (
          <p className={styles.note} role="alert">
            {t("loadFailed")}{" "}
            <button type="button" className={styles.textButton} onClick={onReloadMembers}>
              {t("tryAgain")}
            </button>
          </p>
        ) : (
          <ul className={styles.people} aria-label={t("membersTitle")} data-testid="group-members">
            {members.list.map((m) => {
              const self = m.id === viewerId;
              // The owner removes anyone; an admin removes members (not the owner, not other admins).
              const canRemove = !self && (role === "OWNER" ? m.role !== "OWNER" : role === "ADMIN" && m.role === "MEMBER");
              const canRole = !self && role === "OWNER";
              const menuOpen = openMenu === m.id;
              return (
                <li key={m.id} className={styles.memberItem} data-testid="group-member" data-member-id={m.id} data-role={m.role}>
                  <div className={styles.memberRow}>
                    <Link href={`/profile/${m.id}`} className={styles.memberLink}>
                      <span className={styles.memberAvatar}>
                        <Avatar id={m.id} firstName={m.firstName} lastName={m.lastName} photo={m.photo} size={40} alt="" />
                        {m.isOnline ? <span className={styles.memberOnline} role="img" aria-label={t("online")} /> : null}
                      </span>
                      <span className={styles.memberText}>
                        <span className={styles.personName}>{self ? `${nameOf(m)} (${t("you")})` : nameOf(m)}</span>
                        <span className={styles.memberRole}>
                          {m.role !== "MEMBER" ? t("role", { role: m.role }) : m.isFriend ? t("friend") : t("role", { role: m.role })}
                        </span>
                      </span>
                    </Link>
                    {canRemove || canRole ? (
                      <button
                        type="button"
                        className={styles.memberMore}
                        aria-expanded={menuOpen}
                        aria-label={t("memberActions", { name: nameOf(m) })}
                        title={t("memberActions", { name: nameOf(m) })}
                        onClick={() => setOpenMenu(menuOpen ? null : m.id)}
                        data-testid="member-actions"
                      >
                        <MoreIcon size={18} />
                      </button>
                    ) : null}
                  </div>
                  {menuOpen ? (
                    <div className={styles.memberActions}>
                      {canRole && m.role === "MEMBER" ? (
                        <Button variant="ghost" disabled={busy} onClick={() => void setRole(m, "ADMIN")}>
                          {t("makeAdmin")}
                        </Button>
                      ) : null}
                      {canRole && m.role === "ADMIN" ? (
                        <Button variant="ghost" disabled={busy} onClick={() => void setRole(m, "MEMBER")}>
                          {t("unmakeAdmin")}
                        </Button>
                      ) : null}
                      {canRole ? (
                        <Button variant="ghost" disabled={busy} onClick={() => setConfirm({ kind: "owner", member: m })}>
                          {t("makeOwner")}
                        </Button>
                      ) : null}
                      {canRemove ? (
                        <Button variant="ghost" className={styles.dangerText} disabled={busy} onClick={() => setConfirm({ kind: "remove", member: m })}>
                          {t("remove")}
                        </Button>
                      ) : null}
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </>
    );
    footer = role ? (
      <Button variant="ghost" className={styles.dangerText} onClick={() => setConfirm({ kind: "leave" })} data-testid="leave-group">
        {t("leave")}
      </Button>
    ) : null;
  }

  return (
    <GroupModal open={open} onClose={close} title={title} closeLabel={t("close")} testId="members-panel" footer={footer} wide>
      {body}
    </GroupModal>
  );
}
