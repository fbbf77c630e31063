import { getTranslations } from "next-intl/server";
import { requireViewer } from "@/components/layout/current-viewer";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { NewsIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("News");

export default async function NewsPage() {
  await requireViewer("News");
  const t = await getTranslations("news");
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      <EmptyState icon={<NewsIcon size={28} />} title={t("emptyTitle")} text={t("emptyText")}>
        <ButtonLink href="/friends/find">{t("findFriends")}</ButtonLink>
      </EmptyState>
    </Card>
  );
}
