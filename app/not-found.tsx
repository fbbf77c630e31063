import { getTranslations } from "next-intl/server";
import { EmptyShell } from "@/components/layout/empty-shell";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("NotFound");

/** Shown when a page says its item does not exist (unknown paths themselves go to the news page). */
export default async function NotFound() {
  const routes = await getTranslations("routes");
  const t = await getTranslations("common");
  return (
    <EmptyShell>
      <Card>
        <EmptyState icon={<SearchIcon size={28} />} title={routes("NotFound")} text={t("notFoundText")} headingLevel={1}>
          <ButtonLink href="/">{t("toNews")}</ButtonLink>
        </EmptyState>
      </Card>
    </EmptyShell>
  );
}
