import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { currentViewer } from "@/components/layout/current-viewer";
import { Header } from "@/components/layout/header";
import styles from "@/components/layout/main-shell.module.css";
import { MobileNav } from "@/components/layout/mobile-nav";
import { Sidebar } from "@/components/layout/sidebar";
import { toShellViewer } from "@/components/layout/to-shell-viewer";
import { RealtimeProvider } from "@/components/realtime/realtime-provider";

/** The main layout: top bar, left sidebar (bottom bar on phones) and the centred content column. */
export default async function MainLayout({ children }: { children: ReactNode }) {
  const current = await currentViewer();
  const viewer = current ? toShellViewer(current.summary) : null;
  const t = await getTranslations("app");
  return (
    <>
      <a href="#content" className="skip-link">
        {t("skipToContent")}
      </a>
      <Header viewer={viewer} />
      {viewer ? <RealtimeProvider /> : null}
      <div className={`${styles.page} ${viewer ? "" : styles.guest}`}>
        {viewer ? <Sidebar viewer={viewer} /> : null}
        <main id="content" className={styles.main} tabIndex={-1}>
          {children}
        </main>
      </div>
      {viewer ? <MobileNav viewer={viewer} /> : null}
    </>
  );
}
