import { getTranslations } from "next-intl/server";
import { currentViewer } from "@/components/layout/current-viewer";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("FriendsFind");

export default async function FriendsFindPage() {
  const t = await getTranslations("friends");
  const viewer = await currentViewer();
  return (
    <Card>
      <CardHeader as="h1" title={t("findHeading")} />
      {viewer ? (
        <EmptyState icon={<SearchIcon size={28} />} title={t("findTitle")} text={t("findText")}>
          <ButtonLink href="/search?tab=people">{t("toSearch")}</ButtonLink>
        </EmptyState>
      ) : (
        <SignInPrompt returnTo="FriendsFind" />
      )}
    </Card>
  );
}
