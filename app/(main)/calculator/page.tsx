import { getTranslations } from "next-intl/server";
import { Calculator } from "@/components/calculator/calculator";
import { requireViewer } from "@/components/layout/current-viewer";
import { Card, CardHeader } from "@/components/ui/card";
import { routeMetadata } from "@/lib/i18n/metadata";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Calculator");

async function CalculatorPage() {
  await requireViewer("Calculator");
  const t = await getTranslations("calculator");
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      <Calculator />
    </Card>
  );
}

export default withClientMessages("(main)/calculator/page", CalculatorPage);
