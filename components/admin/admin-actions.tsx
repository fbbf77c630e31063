"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/lib/client/notify";
import { LockIcon, CheckCircleIcon } from "@/components/ui/icons-more";
import { api, ApiError } from "@/lib/client/api";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Role } from "@/lib/validation/admin";
import styles from "./admin-ui.module.css";
import { ReasonField } from "./reason-field";

/**
 * Block / unblock of a user, post, comment or community (issue 42) (spec section 6: icons with the tooltips 'Заблокировать' and
 * 'Разблокировать'). A click asks for the reason in a confirmation first (issue 24 item 16, docs/adr/0118);
 * the server checks the role and records the action with that reason; the page is re-rendered after it.
 */
export function BlockButton({
  kind,
  id,
  blocked,
  withLabel,
}: {
  kind: "users" | "posts" | "comments" | "communities" | "servers";
  /** The target's id; a fediverse server's host (issue 43). */
  id: number | string;
  blocked: boolean;
  withLabel?: boolean;
}) {
  const t = useTranslations("admin");
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const label = blocked ? t("unblock") : t("block");
  function open() {
    setReason("");
    setMissing(false);
    setFailure(null);
    setAsking(true);
  }
  async function run() {
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const target = kind === "servers" ? `admin/fediverse/servers/${encodeURIComponent(id)}` : `admin/${kind}/${id}`;
      await api(`${target}/${blocked ? "unblock" : "block"}`, { method: "PUT", body: { reason: reason.trim() } });
      setAsking(false);
      notify({ status: "success", message: kind === "users" ? t(blocked ? "unblockedUserDone" : "blockedUserDone") : t(blocked ? "unblockedDone" : "blockedDone") });
      router.refresh();
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : t("actionFailed"));
    } finally {
      setBusy(false);
    }
  }
  const Icon = blocked ? CheckCircleIcon : LockIcon;
  return (
    <>
      <button
        type="button"
        className={`${styles.action} ${blocked ? styles.actionUnblock : styles.actionBlock}`}
        title={label}
        aria-label={withLabel ? undefined : label}
        aria-haspopup="dialog"
        disabled={busy}
        onClick={open}
        data-testid={`${blocked ? "unblock" : "block"}-${kind}-${id}`}
      >
        <Icon size={18} />
        {withLabel ? <span>{label}</span> : null}
      </button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t(blocked ? "unblockTitle" : "blockTitle", { kind })}
        text={t(blocked ? "unblockText" : "blockText", { kind })}
        busy={busy}
        failure={failure}
        cancelLabel={t("reasonCancel")}
        confirmLabel={label}
        safe={blocked}
        onConfirm={() => void run()}
      >
        <ReasonField value={reason} missing={missing} onChange={setReason} onEnter={() => void run()} />
      </ConfirmDialog>
    </>
  );
}

/** An administrator's role control for one account (never their own: the server refuses it too). */
export function RoleSelect({ id, role, name, disabled }: { id: number; role: Role; name: string; disabled?: boolean }) {
  const t = useTranslations("admin");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function change(next: Role) {
    setBusy(true);
    try {
      await api(`admin/users/${id}/role`, { method: "PUT", body: { role: next } });
      notify({ status: "success", message: t("roleDone") });
      router.refresh();
    } catch (err) {
      notify({ status: "error", message: err instanceof ApiError ? err.message : t("actionFailed") });
    } finally {
      setBusy(false);
    }
  }
  return (
    <select
      className={styles.select}
      aria-label={t("roleLabel", { name })}
      title={disabled ? t("ownRole") : undefined}
      value={role}
      disabled={disabled || busy}
      onChange={(e) => void change(e.target.value as Role)}
      data-testid={`role-${id}`}
    >
      {(["USER", "MODERATOR", "ADMIN"] as const).map((r) => (
        <option key={r} value={r}>
          {t(`role${r}`)}
        </option>
      ))}
    </select>
  );
}
