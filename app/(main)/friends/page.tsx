import { getTranslations } from "next-intl/server";
import { getDb } from "@/db/client";
import { FriendsTabs } from "@/components/friends/friends-tabs";
import { tabOfSlug } from "@/components/friends/tab-slugs";
import { currentViewer } from "@/components/layout/current-viewer";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { SearchIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";
import { countFriendsByStatus, listFriends } from "@/lib/server/services/friends/lists";
import { FRIENDS_FIRST_PAGE } from "@/lib/validation/friends";
import { requestLocale } from "@/lib/i18n/request";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Friends");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * /friends (spec section 2): six tabs with their counts. The counts and the first page of the opening
 * tab are rendered here through the services; the tab comes from ?tab=, else incoming requests when
 * there are any, else friends.
 */
async function FriendsPage({ searchParams }: Props) {
  const t = await getTranslations("friends");
  const current = await currentViewer();
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current?.viewer.isDeleted) return null;
  if (!current) {
    return (
      <Card>
        <CardHeader as="h1" title={t("heading")} />
        <SignInPrompt returnTo="Friends" />
      </Card>
    );
  }
  const slug = (await searchParams).tab;
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "friends-page", locale: await requestLocale() };
  const counts = await countFriendsByStatus({ ctx });
  const tab = tabOfSlug(Array.isArray(slug) ? slug[0] : slug) ?? (counts.REQUEST_FROM > 0 ? "REQUEST_FROM" : "FRIEND");
  const firstPage = await listFriends({ ctx, input: { statusCode: tab, page: 0, size: FRIENDS_FIRST_PAGE } });
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")}>
        <ButtonLink href="/friends/find" variant="secondary">
          <SearchIcon size={16} />
          {t("find")}
        </ButtonLink>
      </CardHeader>
      <FriendsTabs initialTab={tab} initialCounts={counts} initialPage={firstPage} />
    </Card>
  );
}

export default withClientMessages("(main)/friends/page", FriendsPage);
