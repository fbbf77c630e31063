import { getTranslations } from "next-intl/server";
import { currentViewer } from "@/components/layout/current-viewer";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Friends");

export default async function FriendsPage() {
  const t = await getTranslations("friends");
  const viewer = await currentViewer();
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      {viewer ? (
        <EmptyState icon={<UsersIcon size={28} />} title={t("emptyTitle")} text={t("emptyText")}>
          <ButtonLink href="/friends/find">{t("find")}</ButtonLink>
        </EmptyState>
      ) : (
        <SignInPrompt returnTo="Friends" />
      )}
    </Card>
  );
}
