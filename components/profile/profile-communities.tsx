import { getTranslations } from "next-intl/server";
import { CommunityAvatar } from "@/components/communities/community-avatar";
import { currentViewer } from "@/components/layout/current-viewer";
import { Card, CardHeader } from "@/components/ui/card";
import Link from "@/components/ui/link";
import { getDb } from "@/db/client";
import { requestLocale } from "@/lib/i18n/request";
import { ServiceError } from "@/lib/server/http/errors";
import { listCommunities } from "@/lib/server/services/communities/communities";
import { ProfileCommunitiesDialog } from "./profile-communities-dialog";
import styles from "./profile.module.css";
import local from "./profile-communities.module.css";

/** Communities the block shows at most (as the friends block's faces). */
export const PROFILE_COMMUNITIES_MAX = 6;

/**
 * The communities block of a profile (issue 42): up to six of the person's communities (GET
 * communities?memberId= — another's: their open ones, when their page is open to the viewer; one's own:
 * all), each its photo or letter and name, the count, and a way to all of them (one's own: /communities;
 * another's: a dialog). Nothing when there are none.
 */
export async function ProfileCommunitiesBlock({ accountId, own, name }: { accountId: number; own: boolean; name: string }) {
  const current = await currentViewer();
  if (!current) return null;
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "profile-page", locale: await requestLocale() };
  const page = await listCommunities({ ctx, input: { memberId: accountId, page: 0, size: PROFILE_COMMUNITIES_MAX } }).catch((err: unknown) => {
    if (err instanceof ServiceError) return null;
    throw err;
  });
  if (!page || page.totalElements === 0) return null;
  const t = await getTranslations("profile");
  return (
    <Card className={local.card} aria-labelledby="profile-communities-title" data-testid="profile-communities">
      <CardHeader title={<span id="profile-communities-title">{t("communitiesHeading")}</span>}>
        <span className={styles.friendsCount} data-testid="profile-communities-count">
          {page.totalElements}
        </span>
      </CardHeader>
      <ul className={styles.friendGrid}>
        {page.content.map((c) => (
          <li key={c.id}>
            <Link href={`/community/${c.id}`} className={styles.friend} data-testid="profile-community">
              <CommunityAvatar id={c.id} name={c.name} photo={c.photo} size={56} />
              <span className={styles.friendName}>{c.name}</span>
            </Link>
          </li>
        ))}
      </ul>
      <div className={local.more}>
        {own ? (
          <Link href="/communities" className={local.all} data-testid="profile-communities-all">
            {t("communitiesAll")}
          </Link>
        ) : (
          <ProfileCommunitiesDialog accountId={accountId} count={page.totalElements} name={name} />
        )}
      </div>
    </Card>
  );
}
