import { getTranslations } from "next-intl/server";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LockIcon } from "@/components/ui/icons-more";
import type { RouteName } from "@/lib/routes";

/** Shown inside a public page's card where it would show the viewer's own data to someone not signed in. */
export async function SignInPrompt({ returnTo }: { returnTo: RouteName }) {
  const t = await getTranslations("common");
  return (
    <EmptyState icon={<LockIcon size={28} />} title={t("signInPromptTitle")} text={t("signInPromptText")}>
      <ButtonLink href={`/login?redirect=${returnTo}`}>{t("signIn")}</ButtonLink>
      <ButtonLink href="/registration" variant="secondary">
        {t("register")}
      </ButtonLink>
    </EmptyState>
  );
}
