import { getTranslations } from "next-intl/server";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("NotFound");

/**
 * Shown when a page says its item does not exist (unknown paths themselves go to the news page). It
 * renders inside the layout of the page that asked, whose `<main>` already holds it: a card of the
 * column, with no landmark of its own (a second `<main>` nested in the first, issue 24 item 21).
 */
export default async function NotFound() {
  const routes = await getTranslations("routes");
  const t = await getTranslations("common");
  return (
    <Card>
      <EmptyState icon={<SearchIcon size={28} />} title={routes("NotFound")} text={t("notFoundText")} headingLevel={1}>
        <ButtonLink href="/">{t("toNews")}</ButtonLink>
      </EmptyState>
    </Card>
  );
}
