import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { currentViewer } from "@/components/layout/current-viewer";
import { Header } from "@/components/layout/header";
import styles from "@/components/layout/main-shell.module.css";
import { MobileNav } from "@/components/layout/mobile-nav";
import { Sidebar } from "@/components/layout/sidebar";
import { toShellViewer } from "@/components/layout/to-shell-viewer";
import { DeletedAccountScreen } from "@/components/account/deleted-account-screen";
import { getDb } from "@/db/client";
import { env } from "@/lib/server/env";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { RealtimeProvider } from "@/components/realtime/realtime-provider";
import { countUnreadMessages } from "@/lib/server/services/dialogs/dialogs";
import { countIncomingRequests } from "@/lib/server/services/friends/lists";
import { countNotifications } from "@/lib/server/services/notifications/list";
import { withClientMessages } from "@/components/layout/client-messages";
import { DeviceStatus, DeviceWork } from "@/components/layout/device-work";

/** The main layout: top bar, left sidebar (bottom bar on phones) and the centred content column. */
async function MainLayout({ children }: { children: ReactNode }) {
  const current = await currentViewer();
  const viewer = current ? toShellViewer(current.summary) : null;
  const t = await getTranslations("app");
  if (current && viewer?.isDeleted) {
    // A deleted account sees only the notice with its restore button, on every page (spec section 2).
    const me = await getMyAccount({ ctx: { viewer: current.viewer, db: getDb(), requestId: "page" } });
    return (
      <>
        <Header viewer={viewer} />
        <div className={`${styles.page} ${styles.guest}`}>
          <main id="content" className={styles.main} tabIndex={-1}>
            <DeletedAccountScreen restoreUntil={me.restoreUntil ?? null} restoreDays={env().DELETION_RESTORE_DAYS} />
          </main>
        </div>
      </>
    );
  }
  // The first paint of the "messages" badge (spec section 4), the bell's and the friend requests' counts:
  // read here with the page, so the starting page sends no request and renders nothing again for them
  // (docs/adr/0143); the socket keeps them live from there.
  const ctx = current ? { viewer: current.viewer, db: getDb(), requestId: "layout" } : null;
  const [unreadMessages, unreadNotifications, friendRequests] = ctx
    ? await Promise.all([
        countUnreadMessages({ ctx }).then((r) => r.count),
        // A count that cannot be read here is read by the badge itself, as before.
        countNotifications({ ctx }).then((r) => r.count, () => undefined),
        countIncomingRequests({ ctx }).then((r) => r.count, () => undefined),
      ])
    : [0, undefined, undefined];
  return (
    <>
      <a href="#content" className="skip-link">
        {t("skipToContent")}
      </a>
      <Header viewer={viewer} unreadNotifications={unreadNotifications} />
      {viewer ? <RealtimeProvider /> : null}
      {viewer ? <DeviceWork viewerId={viewer.id} unreadMessages={unreadMessages} unreadNotifications={unreadNotifications} /> : null}
      <div className={`${styles.page} ${viewer ? "" : styles.guest}`}>
        {viewer ? <Sidebar viewer={viewer} unreadMessages={unreadMessages} friendRequests={friendRequests} /> : null}
        <main id="content" className={styles.main} tabIndex={-1}>
          {viewer ? <DeviceStatus /> : null}
          {children}
        </main>
      </div>
      {viewer ? <MobileNav viewer={viewer} unreadMessages={unreadMessages} friendRequests={friendRequests} /> : null}
    </>
  );
}

export default withClientMessages("(main)/layout", MainLayout);
