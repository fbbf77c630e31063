"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import buttonStyles from "@/components/ui/button.module.css";
import { ChevronDownIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ReportButton } from "@/components/report/report-menu";
import report from "@/components/report/report.module.css";
import { FormAlert } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { isAdminRole } from "./community-kind";
import { useFailureText } from "./community-text";
import { InviteButton } from "./invite-dialog";
import styles from "./communities.module.css";

/**
 * What the caller may do about a community (issue 42): join an open one, ask to join a closed one, cancel
 * the request, accept or decline an invitation, leave (the owner cannot: they hand it on first), invite
 * friends; a banned person reads that they are banned. Each answer re-reads the page from the server.
 */
export function CommunityActions({ community, viewerId }: { community: CommunityDto; viewerId: number }) {
  const t = useTranslations("communities");
  const router = useRouter();
  const failureText = useFailureText();
  const [pending, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const waiting = busy || pending;

  async function run(action: "join" | "leave") {
    setBusy(true);
    setFailure(null);
    try {
      if (action === "join") await api(`communities/${community.id}/members`, { method: "POST" });
      else await api(`communities/${community.id}/members/${viewerId}`, { method: "DELETE" });
      setConfirmLeave(false);
      // A private community is not there for someone who has left it.
      if (action === "leave" && community.type === "PRIVATE" && community.membership === "MEMBER") router.push("/communities");
      else startTransition(() => router.refresh());
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  const { membership, role, type } = community;
  // Members invite their friends; into a private community only its admins.
  const canInvite = membership === "MEMBER" && (type !== "PRIVATE" || isAdminRole(role));
  let main: React.ReactNode = null;
  if (membership === "NONE") {
    main = (
      <Button onClick={() => void run("join")} disabled={waiting} data-testid="community-join">
        {type === "OPEN" ? t("join") : t("requestJoin")}
      </Button>
    );
  } else if (membership === "REQUESTED") {
    main = (
      <>
        <span className={styles.state} data-testid="community-state">
          {t("requestSent")}
        </span>
        <Button variant="secondary" onClick={() => void run("leave")} disabled={waiting} data-testid="community-cancel-request">
          {t("cancelRequest")}
        </Button>
      </>
    );
  } else if (membership === "INVITED") {
    main = (
      <>
        <Button onClick={() => void run("join")} disabled={waiting} data-testid="community-accept">
          {t("acceptInvitation")}
        </Button>
        <Button variant="secondary" onClick={() => void run("leave")} disabled={waiting} data-testid="community-decline">
          {t("decline")}
        </Button>
      </>
    );
  } else if (membership === "BANNED") {
    main = (
      <span className={`${styles.state} ${styles.stateDanger}`} data-testid="community-state">
        {t("youAreBanned")}
      </span>
    );
  } else {
    // «Вы участник ▾»: leaving sits in its menu (the owner cannot leave: they hand the community on first).
    const state = role === "OWNER" ? null : (
      <LazyMenu
        trigger={{
          className: `${buttonStyles.button} ${buttonStyles.secondary}`,
          "data-testid": "community-state",
          disabled: waiting,
          children: (
            <>
              <span>{t("youAreMember")}</span>
              <ChevronDownIcon size={16} />
            </>
          ),
        }}
      >
        {(Menu) => (
          <Menu.Portal>
            <Menu.Content className={menu.content} align="end" sideOffset={6} collisionPadding={8}>
              <Menu.Item className={`${menu.item} ${menu.danger}`} onSelect={() => setConfirmLeave(true)} data-testid="community-leave">
                <span className={menu.itemText}>{t("leave")}</span>
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        )}
      </LazyMenu>
    );
    main = (
      <>
        {state}
        {canInvite ? <InviteButton communityId={community.id} admin={isAdminRole(role)} /> : null}
      </>
    );
  }

  return (
    <div className={styles.actionsBox}>
      <div className={styles.actionsRow}>{main}</div>
      {failure && !confirmLeave ? <FormAlert>{failure}</FormAlert> : null}
      {role === "OWNER" ? null : <ReportButton target={{ type: "COMMUNITY", id: community.id }} className={report.textAction} withIcon />}
      <ConfirmDialog
        open={confirmLeave}
        onOpenChange={setConfirmLeave}
        title={t("leaveTitle")}
        text={type === "OPEN" ? t("leaveText") : t("leaveTextClosed")}
        cancelLabel={t("cancel")}
        confirmLabel={t("leaveConfirm")}
        busy={busy}
        busyLabel={t("leaving")}
        failure={confirmLeave ? failure : null}
        onConfirm={() => void run("leave")}
      />
    </div>
  );
}
