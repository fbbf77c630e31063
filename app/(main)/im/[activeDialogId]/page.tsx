import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { requireViewer } from "@/components/layout/current-viewer";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { MessageIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { pathOf } from "@/lib/routes";

export const generateMetadata = () => routeMetadata("ImChat");

type Props = { params: Promise<{ activeDialogId: string }> };

export default async function ImChatPage({ params }: Props) {
  const { activeDialogId } = await params;
  // A malformed id is an unknown path (spec section 2): the news page.
  if (!pathOf("ImChat", { activeDialogId })) redirect("/");
  await requireViewer("ImChat", { activeDialogId });
  const t = await getTranslations("im");
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      <EmptyState icon={<MessageIcon size={28} />} title={t("dialogNotFoundTitle")} text={t("dialogNotFoundText")}>
        <ButtonLink href="/im">{t("toDialogs")}</ButtonLink>
      </EmptyState>
    </Card>
  );
}
