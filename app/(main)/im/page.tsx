import { getTranslations } from "next-intl/server";
import { requireViewer } from "@/components/layout/current-viewer";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { MessageIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Im");

export default async function ImPage() {
  await requireViewer("Im");
  const t = await getTranslations("im");
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      <EmptyState icon={<MessageIcon size={28} />} title={t("emptyTitle")} text={t("emptyText")}>
        <ButtonLink href="/friends">{t("toFriends")}</ButtonLink>
      </EmptyState>
    </Card>
  );
}
