import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import styles from "@/components/layout/form-shell.module.css";
import { LanguageSwitch } from "@/components/layout/language-switch";
import { ThemeSwitch } from "@/components/layout/theme-switch";
import { LogoMark } from "@/components/ui/icons";
import { withClientMessages } from "@/components/layout/client-messages";

/** The form layout of the auth pages: the product mark and one centred card; theme and language on top. */
async function FormLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations("app");
  return (
    <div className={styles.shell}>
      <div className={styles.top}>
        <ThemeSwitch />
        <LanguageSwitch />
      </div>
      <main className={styles.center}>
        <Link href="/login" className={styles.brand}>
          <LogoMark size={40} />
          <span>{t("name")}</span>
        </Link>
        <div className={styles.card}>{children}</div>
        <p className={styles.tagline}>{t("tagline")}</p>
      </main>
    </div>
  );
}

export default withClientMessages("(form)/layout", FormLayout);
