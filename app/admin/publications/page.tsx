import { getTranslations } from "next-intl/server";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FileTextIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("AdminPublications");

export default async function AdminPublicationsPage() {
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminPublications")} />
      <EmptyState icon={<FileTextIcon size={28} />} title={t("publicationsEmptyTitle")} text={t("publicationsEmptyText")} />
    </Card>
  );
}
