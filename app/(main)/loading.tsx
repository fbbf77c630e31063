import { getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";

export default async function MainLoading() {
  const t = await getTranslations("common");
  return (
    <Card>
      <Spinner label={t("loading")} />
    </Card>
  );
}
