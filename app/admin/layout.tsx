import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AdminSidebar } from "@/components/layout/admin-sidebar";
import styles from "@/components/layout/admin-shell.module.css";
import { currentViewer } from "@/components/layout/current-viewer";
import { withClientMessages } from "@/components/layout/client-messages";
import { RealtimeProvider } from "@/components/realtime/realtime-provider";

/** The admin area: its own sidebar and no top bar. Only administrators and moderators get in; others go to "/". */
async function AdminLayout({ children }: { children: ReactNode }) {
  const current = await currentViewer();
  if (!current || current.summary.role === "USER") redirect("/");
  const t = await getTranslations("app");
  return (
    <div className={styles.shell}>
      <a href="#content" className="skip-link">
        {t("skipToContent")}
      </a>
      <AdminSidebar />
      {/* The socket: the open-reports count in the sidebar is live (issue 26). */}
      <RealtimeProvider />
      <main id="content" className={styles.main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

export default withClientMessages("admin/layout", AdminLayout);
