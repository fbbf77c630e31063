"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { CommunitiesIcon } from "@/components/ui/icons";
import { api } from "@/lib/client/api";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import type { Paged } from "@/lib/validation/friends-shared";
import { CommunityRow } from "./community-row";
import { useFailureText } from "./community-text";
import styles from "./communities.module.css";

type Kind = "MEMBER" | "INVITED" | "REQUESTED";

/** A page of the viewer's communities of one kind, with «Показать ещё» reading the next pages. */
function usePaged(initial: Paged<CommunityDto>, membership: Kind) {
  const [more, setMore] = useState<{ base: Paged<CommunityDto>; rows: CommunityDto[]; next: number } | null>(null);
  const [loading, setLoading] = useState(false);
  // A new first page from the server (after an action) starts the list again.
  const extra = more?.base === initial ? more : null;
  const rows = [...initial.content, ...(extra?.rows ?? [])].filter((c, i, all) => all.findIndex((o) => o.id === c.id) === i);
  const next = extra?.next ?? 1;
  const hasMore = next < initial.totalPages;
  async function loadMore() {
    setLoading(true);
    try {
      const query = new URLSearchParams({ membership, page: String(next), size: String(initial.size) });
      const page = await api<Paged<CommunityDto>>(`communities?${query}`);
      setMore({ base: initial, rows: [...(extra?.rows ?? []), ...page.content], next: next + 1 });
    } finally {
      setLoading(false);
    }
  }
  return { rows, hasMore, loading, loadMore };
}

function MoreButton({ onClick, loading }: { onClick: () => void; loading: boolean }) {
  const t = useTranslations("communities");
  return (
    <div className={styles.more}>
      <Button variant="ghost" onClick={onClick} disabled={loading}>
        {loading ? t("loading") : t("showMore")}
      </Button>
    </div>
  );
}

/**
 * The viewer's side of /communities (issue 42): invitations to accept or decline and requests still
 * waiting (each only when there are any), then the communities they are a member of. An answer re-reads
 * the page from the server.
 */
export function MyCommunities({ viewerId, mine, invited, requested }: { viewerId: number; mine: Paged<CommunityDto>; invited: Paged<CommunityDto>; requested: Paged<CommunityDto> }) {
  const t = useTranslations("communities");
  const router = useRouter();
  const failureText = useFailureText();
  const [pending, startTransition] = useTransition();
  const [busy, setBusy] = useState<number | null>(null);
  const [failure, setFailure] = useState<{ id: number; text: string } | null>(null);
  const mineList = usePaged(mine, "MEMBER");
  const invitedList = usePaged(invited, "INVITED");
  const requestedList = usePaged(requested, "REQUESTED");

  async function act(community: CommunityDto, action: "join" | "leave") {
    setBusy(community.id);
    setFailure(null);
    try {
      if (action === "join") await api(`communities/${community.id}/members`, { method: "POST" });
      else await api(`communities/${community.id}/members/${viewerId}`, { method: "DELETE" });
      startTransition(() => router.refresh());
    } catch (err) {
      setFailure({ id: community.id, text: failureText(err) });
    } finally {
      setBusy(null);
    }
  }

  // Nothing else is pressed while an answer travels or the page is read again.
  const disabled = (id: number) => busy === id || busy !== null || pending;
  const rowFailure = (id: number) =>
    failure?.id === id ? (
      <p className={styles.rowFailure} role="alert">
        {failure.text}
      </p>
    ) : null;

  return (
    <>
      {invited.totalElements > 0 ? (
        <Card data-testid="community-invitations">
          <CardHeader title={t("invitationsHeading", { count: invited.totalElements })} />
          <ul className={styles.list}>
            {invitedList.rows.map((c) => (
              <CommunityRow key={c.id} community={c}>
                <Button onClick={() => void act(c, "join")} disabled={disabled(c.id)} data-testid="accept-invitation">
                  {t("accept")}
                </Button>
                <Button variant="secondary" onClick={() => void act(c, "leave")} disabled={disabled(c.id)} data-testid="decline-invitation">
                  {t("decline")}
                </Button>
                {rowFailure(c.id)}
              </CommunityRow>
            ))}
          </ul>
          {invitedList.hasMore ? <MoreButton onClick={() => void invitedList.loadMore()} loading={invitedList.loading} /> : null}
        </Card>
      ) : null}
      {requested.totalElements > 0 ? (
        <Card data-testid="community-requests">
          <CardHeader title={t("requestsHeading", { count: requested.totalElements })} />
          <ul className={styles.list}>
            {requestedList.rows.map((c) => (
              <CommunityRow key={c.id} community={c}>
                <Button variant="secondary" onClick={() => void act(c, "leave")} disabled={disabled(c.id)} data-testid="cancel-request">
                  {t("cancelRequest")}
                </Button>
                {rowFailure(c.id)}
              </CommunityRow>
            ))}
          </ul>
          {requestedList.hasMore ? <MoreButton onClick={() => void requestedList.loadMore()} loading={requestedList.loading} /> : null}
        </Card>
      ) : null}
      <Card data-testid="my-communities">
        <CardHeader title={mine.totalElements > 0 ? t("mineHeading", { count: mine.totalElements }) : t("mineHeadingEmpty")} />
        {mine.totalElements === 0 ? (
          <EmptyState compact icon={<CommunitiesIcon size={28} />} title={t("mineEmptyTitle")} text={t("mineEmptyText")} />
        ) : (
          <ul className={styles.list}>
            {mineList.rows.map((c) => (
              <CommunityRow key={c.id} community={c} />
            ))}
          </ul>
        )}
        {mineList.hasMore ? <MoreButton onClick={() => void mineList.loadMore()} loading={mineList.loading} /> : null}
      </Card>
    </>
  );
}
