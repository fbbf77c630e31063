import { getTranslations } from "next-intl/server";
import { Calculator } from "@/components/calculator/calculator";
import { requireViewer } from "@/components/layout/current-viewer";
import { Card, CardHeader } from "@/components/ui/card";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Calculator");

export default async function CalculatorPage() {
  await requireViewer("Calculator");
  const t = await getTranslations("calculator");
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      <Calculator />
    </Card>
  );
}
