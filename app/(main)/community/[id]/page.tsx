import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CommunityActions } from "@/components/communities/community-actions";
import { CommunityHead } from "@/components/communities/community-head";
import { isAdminRole } from "@/components/communities/community-kind";
import { CommunityMembers } from "@/components/communities/community-members";
import { CommunityPrefs } from "@/components/communities/community-prefs";
import { CommunityWall } from "@/components/communities/community-wall";
import { renderCardPage } from "@/components/post/card-page";
import { DeletedNotice } from "@/components/communities/deleted-notice";
import { ManagePanel } from "@/components/communities/manage-panel";
import styles from "@/components/communities/communities.module.css";
import { withClientMessages } from "@/components/layout/client-messages";
import { publicCommunityMetadata, SignedOutCommunity } from "@/components/communities/public-community";
import { currentViewer, requireViewer } from "@/components/layout/current-viewer";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LockIcon } from "@/components/ui/icons-more";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { requestLocale } from "@/lib/i18n/request";
import { pathOf } from "@/lib/routes";
import { env } from "@/lib/server/env";
import { NotFoundError, ValidationError } from "@/lib/server/http/errors";
import type { Viewer } from "@/lib/server/auth/viewer";
import { getCommunity } from "@/lib/server/services/communities/communities";
import { listCommunityMembers } from "@/lib/server/services/communities/members";
import { listPosts } from "@/lib/server/services/posts/list-posts";
import { WALL_PAGE_SIZE } from "@/lib/validation/post";

type Props = { params: Promise<{ id: string }> };

/** The community as the viewer sees it, shared by the metadata and the page of one request; null when it is not there for them. */
const loadCommunity = cache(async (viewer: Viewer, id: string) => {
  const ctx = { viewer, db: getDb(), requestId: "community-page", locale: await requestLocale() };
  return getCommunity({ ctx, input: { id } }).catch((err: unknown) => {
    if (err instanceof NotFoundError || err instanceof ValidationError) return null;
    throw err;
  });
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const current = await currentViewer();
  // Signed out (or a crawler): the public shell's tags.
  if (!current) return publicCommunityMetadata(id);
  if (current.viewer.isDeleted || !pathOf("CommunityId", { id })) return routeMetadata("CommunityId");
  const community = await loadCommunity(current.viewer, id);
  if (!community) return { ...(await routeMetadata("NotFound")), robots: { index: false, follow: false } };
  return { title: community.name };
}

/**
 * /community/{id} (issue 42): the community's head (cover, photo, name, kind, members, description and the
 * viewer's action), a member's switches (feed, notifications), its members (friends first), its wall (the
 * composer for those who may post, then the posts) and, for its admins and owner, the manage panel. A closed
 * one shows a non-member its card and that its posts are for members; a private one, or any the viewer
 * may not see, is the app's not-found page.
 */
async function CommunityPage({ params }: Props) {
  const { id } = await params;
  // Signed out (or a crawler): an open or closed community's public shell; any other is the not-found page.
  if (!(await currentViewer())) return <SignedOutCommunity id={id} />;
  const current = await requireViewer("CommunityId", { id });
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current.viewer.isDeleted) return null;
  if (!pathOf("CommunityId", { id })) notFound();
  const community = await loadCommunity(current.viewer, id);
  if (!community) notFound();
  const t = await getTranslations("communities");
  const viewerId = current.viewer.id;
  if (community.deletedAt) {
    return (
      <div className={styles.stack}>
        <CommunityHead community={community} />
        <DeletedNotice community={community} />
      </div>
    );
  }
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "community-page", locale: await requestLocale() };
  const [faces, wall] = community.canRead
    ? await Promise.all([
        listCommunityMembers({ ctx, input: { id: community.id, query: { status: "MEMBER", page: 0, size: 6 } } }),
        listPosts({ ctx, input: { communityId: String(community.id), page: "0", size: String(WALL_PAGE_SIZE) } }),
      ])
    : [null, null];
  const me = current.summary;
  const viewer = { id: me.id, firstName: me.firstName, lastName: me.lastName, photo: me.photo };
  return (
    <div className={styles.stack}>
      <CommunityHead community={community}>
        <CommunityActions community={community} viewerId={viewerId} />
      </CommunityHead>
      {!community.canRead ? (
        <Card data-testid="community-closed">
          <EmptyState icon={<LockIcon size={28} />} title={t("closedTitle")} text={community.membership === "BANNED" ? t("bannedText") : t("closedText")} />
        </Card>
      ) : null}
      {community.membership === "MEMBER" ? (
        <Card>
          <CommunityPrefs community={community} />
        </Card>
      ) : null}
      {faces ? <CommunityMembers community={community} faces={faces} /> : null}
      {wall ? <CommunityWall community={community} viewer={viewer} first={renderCardPage(wall, viewerId, undefined, true)} /> : null}
      {isAdminRole(community.role) ? <ManagePanel community={community} viewerId={viewerId} restoreDays={env().DELETION_RESTORE_DAYS} /> : null}
    </div>
  );
}

export default withClientMessages("(main)/community/[id]/page", CommunityPage);
