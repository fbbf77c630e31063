import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { currentViewer } from "@/components/layout/current-viewer";
import { publicProfileMetadata } from "@/components/profile/profile-metadata";
import { ProfileView } from "@/components/profile/profile-view";
import { PublicProfileView } from "@/components/profile/public-profile-view";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { UserIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { pathOf } from "@/lib/routes";
import { ServiceError } from "@/lib/server/http/errors";
import { getAccount } from "@/lib/server/services/accounts/get-account";
import { readAccountSummary } from "@/lib/server/services/accounts/viewer-summary";
import { listPosts } from "@/lib/server/services/posts/list-posts";
import { getProfileFriends } from "@/lib/server/services/profiles/profile-friends";
import { WALL_PAGE_SIZE } from "@/lib/validation/post";
import { getPublicProfile } from "@/lib/server/services/profiles/public-profile";
import { requestLocale } from "@/lib/i18n/request";
import { withClientMessages } from "@/components/layout/client-messages";

type Props = { params: Promise<{ id: string }> };

const notFound = (err: unknown) => err instanceof ServiceError && err.code === "not_found";

/** The public shell's data, shared by the metadata and the page of one request; null when there is no page. */
const loadPublicProfile = cache(async (id: number) =>
  getPublicProfile({ ctx: { viewer: null, db: getDb(), requestId: "profile-shell", locale: await requestLocale() }, input: { id } }).catch((err: unknown) => {
    if (notFound(err)) return null;
    throw err;
  }),
);

// Every viewer gets the same head tags: they carry only what the public shell shows (docs/adr/0014).
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  if (!pathOf("ProfileId", { id })) return routeMetadata("ProfileId");
  const profile = await loadPublicProfile(Number(id));
  if (!profile) return { ...(await routeMetadata("NotFound")), robots: { index: false, follow: false } };
  return publicProfileMetadata(profile);
}

/** A deleted or unknown account. The proxy has already set the 404 status; this is what the reader sees. */
async function MissingProfile({ deleted }: { deleted: boolean }) {
  const t = await getTranslations("profile");
  const common = await getTranslations("common");
  return (
    <Card>
      <EmptyState
        icon={<UserIcon size={28} />}
        title={deleted ? t("deletedTitle") : t("notFoundTitle")}
        text={deleted ? t("deletedText") : t("notFoundText")}
        headingLevel={1}
      >
        <ButtonLink href="/">{common("toNews")}</ButtonLink>
      </EmptyState>
    </Card>
  );
}

async function ProfileIdPage({ params }: Props) {
  const { id } = await params;
  // A malformed id is an unknown path (spec section 2): the news page.
  if (!pathOf("ProfileId", { id })) redirect("/");
  const current = await currentViewer();
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current?.viewer.isDeleted) return null;
  if (!current) {
    // Signed out (or a crawler): the public shell. Whether an account was deleted stays private.
    const profile = await loadPublicProfile(Number(id));
    return profile ? <PublicProfileView profile={profile} /> : <MissingProfile deleted={false} />;
  }
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "profile-page", locale: await requestLocale() };
  const [account, summary] = await Promise.all([
    getAccount({ ctx, input: { id } }).catch((err: unknown) => {
      if (notFound(err)) return null;
      throw err;
    }),
    readAccountSummary(ctx.db, Number(id)),
  ]);
  if (!account || !summary) return <MissingProfile deleted={Boolean(summary?.isDeleted)} />;
  // A page closed to the viewer has no wall or friends to read (the services would refuse them: 403).
  const [friends, wall] = account.isClosed
    ? [null, null]
    : await Promise.all([
        getProfileFriends({ ctx, input: { id: account.id } }),
        listPosts({ ctx, input: { accountIds: String(account.id), page: "0", size: String(WALL_PAGE_SIZE) } }),
      ]);
  const me = current.summary;
  const viewer = { id: me.id, firstName: me.firstName, lastName: me.lastName, photo: me.photo };
  return <ProfileView account={account} role={summary.role} own={account.id === current.viewer.id} friends={friends} wall={wall} viewer={viewer} />;
}

export default withClientMessages("(main)/profile/[id]/page", ProfileIdPage);
