"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import type { CommunityDto, CommunityMemberDto, CommunityRole, MemberListStatus } from "@/lib/validation/communities-shared";
import { ROLE_RANK } from "./community-kind";
import { useFailureText } from "./community-text";
import { MemberRow } from "./member-row";
import { useMemberPages } from "./use-member-pages";
import styles from "./communities.module.css";

const SET_ROLES = ["ADMIN", "MODERATOR", "MEMBER"] as const satisfies readonly CommunityRole[];

/** The owner's role switch for one member: admin, moderator or member. */
function RoleSelect({ member, disabled, onPick }: { member: CommunityMemberDto; disabled: boolean; onPick: (role: CommunityRole) => void }) {
  const t = useTranslations("communities");
  const id = useId();
  const name = `${member.firstName} ${member.lastName}`.trim();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {t("roleOf", { name })}
      </label>
      <select id={id} className={styles.select} value={member.role ?? "MEMBER"} disabled={disabled} onChange={(e) => onPick(e.target.value as CommunityRole)} data-testid="member-role">
        {SET_ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`role.${role}`)}
          </option>
        ))}
      </select>
    </>
  );
}

/**
 * One of the admins' lists of a community (issue 42): requests (accept, refuse), members (the owner sets
 * roles and hands the community on; an admin bans or removes those below them), the banned (unban) and
 * the invited (cancel the invitation). Each answer updates the row and re-reads the page's head.
 */
export function ManageList({ community, viewerId, status }: { community: CommunityDto; viewerId: number; status: MemberListStatus }) {
  const t = useTranslations("communities");
  const router = useRouter();
  const failureText = useFailureText();
  const [, startTransition] = useTransition();
  const list = useMemberPages(community.id, status);
  const [busy, setBusy] = useState<number | null>(null);
  const [failure, setFailure] = useState<{ id: number; text: string } | null>(null);
  // What waits for a confirmation: handing the community over, or a ban.
  const [confirming, setConfirming] = useState<{ member: CommunityMemberDto; kind: "handOver" | "ban" } | null>(null);
  const myRank = community.role ? ROLE_RANK[community.role] : 99;
  const isOwner = community.role === "OWNER";

  async function act(member: CommunityMemberDto, change: { role?: CommunityRole; status?: "MEMBER" | "BANNED" } | "remove") {
    setBusy(member.id);
    setFailure(null);
    try {
      if (change === "remove") {
        await api(`communities/${community.id}/members/${member.id}`, { method: "DELETE" });
        list.drop(member.id);
      } else {
        const next = await api<CommunityMemberDto>(`communities/${community.id}/members/${member.id}`, { method: "PUT", body: change });
        // Accepted, banned, or the owner's role handed on: the row leaves this list.
        if (change.status || change.role === "OWNER") list.drop(member.id);
        else list.patch(next);
      }
      setConfirming(null);
      startTransition(() => router.refresh());
    } catch (err) {
      setFailure({ id: member.id, text: failureText(err) });
    } finally {
      setBusy(null);
    }
  }

  function actions(m: CommunityMemberDto) {
    const off = busy !== null;
    const name = `${m.firstName} ${m.lastName}`.trim();
    if (status === "REQUESTED")
      return (
        <>
          <Button onClick={() => void act(m, { status: "MEMBER" })} disabled={off} aria-label={t("acceptRequestOf", { name })} data-testid="request-accept">
            {t("accept")}
          </Button>
          <Button variant="secondary" onClick={() => void act(m, "remove")} disabled={off} aria-label={t("refuseRequestOf", { name })} data-testid="request-refuse">
            {t("refuse")}
          </Button>
        </>
      );
    if (status === "BANNED")
      return (
        <Button variant="secondary" onClick={() => void act(m, "remove")} disabled={off} aria-label={t("unbanOf", { name })} data-testid="member-unban">
          {t("unban")}
        </Button>
      );
    if (status === "INVITED")
      return (
        <Button variant="secondary" onClick={() => void act(m, "remove")} disabled={off} aria-label={t("cancelInvitationOf", { name })} data-testid="invitation-cancel">
          {t("cancelInvitation")}
        </Button>
      );
    if (m.id === viewerId) return null;
    const below = m.role !== null && ROLE_RANK[m.role] > myRank;
    return (
      <>
        {isOwner && m.role !== "OWNER" ? <RoleSelect member={m} disabled={off} onPick={(role) => void act(m, { role })} /> : null}
        {isOwner && m.role !== "OWNER" ? (
          <Button variant="ghost" onClick={() => setConfirming({ member: m, kind: "handOver" })} disabled={off} data-testid="member-hand-over">
            {t("handOver")}
          </Button>
        ) : null}
        {below ? (
          <>
            <Button variant="ghost" onClick={() => setConfirming({ member: m, kind: "ban" })} disabled={off} aria-label={t("banOf", { name })} data-testid="member-ban">
              {t("ban")}
            </Button>
            <Button variant="ghost" onClick={() => void act(m, "remove")} disabled={off} aria-label={t("removeOf", { name })} data-testid="member-remove">
              {t("remove")}
            </Button>
          </>
        ) : null}
      </>
    );
  }

  if (list.failed && !list.rows) return <p className={styles.note}>{t("membersFailed")}</p>;
  if (!list.rows) return <Spinner label={t("loading")} />;
  return (
    <div data-testid={`manage-${status.toLowerCase()}`}>
      {list.rows.length === 0 ? (
        <p className={styles.note}>{t(`emptyList.${status}`)}</p>
      ) : (
        <ul className={styles.memberList}>
          {list.rows.map((m) => (
            <MemberRow key={m.id} member={m} failure={failure?.id === m.id ? failure.text : null}>
              {actions(m)}
            </MemberRow>
          ))}
        </ul>
      )}
      {list.hasMore ? (
        <div className={styles.more}>
          <Button variant="ghost" onClick={list.more} disabled={list.loading}>
            {list.loading ? t("loading") : t("showMore")}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming ? t(`${confirming.kind}Title`) : ""}
        text={confirming ? t(`${confirming.kind}Text`, { name: `${confirming.member.firstName} ${confirming.member.lastName}`.trim() }) : ""}
        cancelLabel={t("cancel")}
        confirmLabel={confirming ? t(`${confirming.kind}Confirm`) : ""}
        busy={busy !== null}
        busyLabel={t("saving")}
        failure={confirming && failure?.id === confirming.member.id ? failure.text : null}
        onConfirm={() => confirming && void act(confirming.member, confirming.kind === "ban" ? { status: "BANNED" } : { role: "OWNER" })}
      />
    </div>
  );
}
