import { getTranslations } from "next-intl/server";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { CommentIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("AdminComments");

export default async function AdminCommentsPage() {
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminComments")} />
      <EmptyState icon={<CommentIcon size={28} />} title={t("commentsEmptyTitle")} text={t("commentsEmptyText")} />
    </Card>
  );
}
