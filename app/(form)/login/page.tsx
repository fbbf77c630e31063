import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { AuthPrompt } from "@/components/auth/auth-links";
import { LoginForm } from "@/components/auth/login-form";
import { AuthFrame } from "@/components/layout/auth-frame";
import { routeMetadata } from "@/lib/i18n/metadata";
import { afterLoginPath } from "@/lib/routes";
import styles from "./login.module.css";

export const generateMetadata = () => routeMetadata("Login");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LoginPage({ searchParams }: Props) {
  const t = await getTranslations("auth");
  // Resolved here from the route table, so the form only ever navigates to a page of our own.
  const redirectTo = afterLoginPath(await searchParams);
  return (
    <AuthFrame heading={t("loginHeading")} text={t("loginText")}>
      <LoginForm redirectTo={redirectTo} />
      <p className={styles.forgot}>
        <Link href="/forgot">{t("forgot")}</Link>
      </p>
      <AuthPrompt question={t("noAccount")} href="/registration" action={t("register")} />
    </AuthFrame>
  );
}
