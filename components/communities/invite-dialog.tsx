"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useState } from "react";
import { useFriends } from "@/components/chat/friend-picker";
import { GroupModal } from "@/components/chat/group-modal";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { UserPlusIcon } from "@/components/ui/icons-more";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import { COMMUNITY_MEMBER_PAGE_MAX, type CommunityMemberDto } from "@/lib/validation/communities-shared";
import type { FriendAccountSummary, Paged } from "@/lib/validation/friends-shared";
import { useFailureText } from "./community-text";
import styles from "./communities.module.css";

/**
 * Friends already in the community (its member list puts the caller's friends first, so one page holds
 * them) and, for its admins, those already invited: their rows say so instead of offering a button.
 */
function useAlready(communityId: number, admin: boolean): Map<number, "MEMBER" | "INVITED"> {
  const [already, setAlready] = useState(new Map<number, "MEMBER" | "INVITED">());
  useEffect(() => {
    let cancelled = false;
    const read = (status: "MEMBER" | "INVITED") =>
      api<Paged<CommunityMemberDto>>(`communities/${communityId}/members?${new URLSearchParams({ status, size: String(COMMUNITY_MEMBER_PAGE_MAX) })}`).then(
        (page) => page.content.filter((m) => m.isFriend).map((m) => [m.id, status] as const),
        () => [],
      );
    void Promise.all([read("MEMBER"), admin ? read("INVITED") : []]).then(([members, invited]) => {
      if (!cancelled) setAlready(new Map([...members, ...invited]));
    });
    return () => {
      cancelled = true;
    };
  }, [communityId, admin]);
  return already;
}

/** The invitation picker's body: the viewer's friends with a filter, each invited with its own button. */
function InviteList({ communityId, admin }: { communityId: number; admin: boolean }) {
  const t = useTranslations("communities");
  const failureText = useFailureText();
  const { friends, failed } = useFriends();
  const already = useAlready(communityId, admin);
  const filterId = useId();
  const [filter, setFilter] = useState("");
  const [state, setState] = useState<Record<number, "busy" | "done" | string>>({});
  const shown = useMemo(() => {
    const q = filter.trim().toLocaleLowerCase();
    const all = friends ?? [];
    return q ? all.filter((f) => `${f.firstName} ${f.lastName}`.toLocaleLowerCase().includes(q) || `${f.lastName} ${f.firstName}`.toLocaleLowerCase().includes(q)) : all;
  }, [friends, filter]);

  async function invite(friend: FriendAccountSummary) {
    setState((s) => ({ ...s, [friend.id]: "busy" }));
    try {
      await api(`communities/${communityId}/invitations`, { method: "POST", body: { accountId: friend.id } });
      setState((s) => ({ ...s, [friend.id]: "done" }));
    } catch (err) {
      setState((s) => ({ ...s, [friend.id]: failureText(err) }));
    }
  }

  if (failed) return <p className={styles.note}>{t("friendsFailed")}</p>;
  if (friends === null) return <Spinner label={t("loading")} />;
  if (friends.length === 0) return <p className={styles.note}>{t("noFriends")}</p>;
  return (
    <div className={styles.picker}>
      <label htmlFor={filterId} className={styles.fieldLabel}>
        {t("filterLabel")}
      </label>
      <input id={filterId} className={styles.input} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} autoComplete="off" data-autofocus />
      {shown.length === 0 ? (
        <p className={styles.note}>{t("noMatches")}</p>
      ) : (
        <ul className={styles.people}>
          {shown.map((f) => {
            const name = `${f.firstName} ${f.lastName}`.trim();
            const s = state[f.id];
            return (
              <li key={f.id} className={styles.person} data-testid="invite-friend">
                <Avatar id={f.id} firstName={f.firstName} lastName={f.lastName} photo={f.photo} size={36} alt="" />
                <span className={styles.personText}>
                  <span className={styles.personName}>{name}</span>
                  {s && s !== "busy" && s !== "done" ? (
                    <span className={styles.personFailure} role="alert">
                      {s}
                    </span>
                  ) : null}
                </span>
                {s === "done" || already.get(f.id) === "INVITED" ? (
                  <span className={styles.state}>{t("invited")}</span>
                ) : already.get(f.id) === "MEMBER" ? (
                  <span className={styles.state}>{t("alreadyMember")}</span>
                ) : (
                  <Button variant="secondary" onClick={() => void invite(f)} disabled={s === "busy"} aria-label={t("inviteName", { name })}>
                    {t("invite")}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** «Пригласить друзей» (issue 42): a dialog listing the viewer's friends (as the conversation's picker does). */
export function InviteButton({ communityId, admin }: { communityId: number; admin: boolean }) {
  const t = useTranslations("communities");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} data-testid="community-invite">
        <UserPlusIcon size={16} />
        <span>{t("inviteFriends")}</span>
      </Button>
      <GroupModal open={open} onClose={() => setOpen(false)} title={t("inviteTitle")} closeLabel={t("close")} testId="invite-dialog">
        <InviteList communityId={communityId} admin={admin} />
      </GroupModal>
    </>
  );
}
