import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { requireViewer } from "@/components/layout/current-viewer";
import { ProfileView } from "@/components/layout/profile-view";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { UserIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { pathOf } from "@/lib/routes";
import { readAccountSummary } from "@/lib/server/services/accounts/viewer-summary";

export const generateMetadata = () => routeMetadata("ProfileId");

type Props = { params: Promise<{ id: string }> };

export default async function ProfileIdPage({ params }: Props) {
  const { id } = await params;
  // A malformed id is an unknown path (spec section 2): the news page.
  if (!pathOf("ProfileId", { id })) redirect("/");
  const { summary } = await requireViewer("ProfileId", { id });
  const account = Number(id) === summary.id ? summary : await readAccountSummary(getDb(), Number(id));
  if (account && !account.isDeleted) return <ProfileView account={account} own={account.id === summary.id} />;
  const t = await getTranslations("profile");
  const common = await getTranslations("common");
  return (
    <Card>
      <EmptyState
        icon={<UserIcon size={28} />}
        title={account ? t("deletedTitle") : t("notFoundTitle")}
        text={account ? t("deletedText") : t("notFoundText")}
        headingLevel={1}
      >
        <ButtonLink href="/">{common("toNews")}</ButtonLink>
      </EmptyState>
    </Card>
  );
}
