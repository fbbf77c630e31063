import { getTranslations } from "next-intl/server";
import { CommunitySearch } from "@/components/communities/community-search";
import { CreateCommunityButton } from "@/components/communities/create-community";
import { MyCommunities } from "@/components/communities/my-communities";
import styles from "@/components/communities/communities.module.css";
import { withClientMessages } from "@/components/layout/client-messages";
import { requireViewer } from "@/components/layout/current-viewer";
import { Card, CardHeader } from "@/components/ui/card";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { requestLocale } from "@/lib/i18n/request";
import { listCommunities } from "@/lib/server/services/communities/communities";
import { COMMUNITY_PAGE_DEFAULT } from "@/lib/validation/communities-shared";

export const generateMetadata = () => routeMetadata("Communities");

/**
 * /communities (issue 42): a search over communities and «Создать сообщество», the viewer's invitations
 * and requests (when there are any) and the communities they belong to, first pages read here.
 */
async function CommunitiesPage() {
  const current = await requireViewer("Communities");
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current.viewer.isDeleted) return null;
  const t = await getTranslations("communities");
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "communities-page", locale: await requestLocale() };
  const first = (membership: "MEMBER" | "INVITED" | "REQUESTED") => listCommunities({ ctx, input: { membership, page: 0, size: COMMUNITY_PAGE_DEFAULT } });
  const [mine, invited, requested] = await Promise.all([first("MEMBER"), first("INVITED"), first("REQUESTED")]);
  return (
    <div className={styles.stack}>
      <Card>
        <CardHeader as="h1" title={t("heading")}>
          <CreateCommunityButton />
        </CardHeader>
        <CommunitySearch />
      </Card>
      <MyCommunities viewerId={current.viewer.id} mine={mine} invited={invited} requested={requested} />
    </div>
  );
}

export default withClientMessages("(main)/communities/page", CommunitiesPage);
