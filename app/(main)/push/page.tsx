import { getTranslations } from "next-intl/server";
import { currentViewer, type CurrentViewer } from "@/components/layout/current-viewer";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { Card, CardHeader } from "@/components/ui/card";
import { NotificationFeed } from "@/components/notifications/notification-feed";
import { DevicePush } from "@/components/push/device-push";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { pageNotifications } from "@/lib/server/services/notifications/list";
import { listPushDevices } from "@/lib/server/services/push/subscriptions";
import { NOTIFICATION_PAGE_SIZE } from "@/lib/validation/notifications-shared";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Push");

/** Page 0 and the moment it was read: the list's "how long ago" is counted from it on the server and in hydration. */
async function firstPage(viewer: CurrentViewer) {
  const ctx = { viewer: viewer.viewer, db: getDb(), requestId: "push-page" };
  const [first, devices] = await Promise.all([
    pageNotifications({ ctx, input: { page: "0", size: String(NOTIFICATION_PAGE_SIZE), sort: "sentTime,desc" } }),
    listPushDevices({ ctx }),
  ]);
  return { first, devices, renderedAt: Date.now() };
}

async function PushPage() {
  const t = await getTranslations("push");
  const viewer = await currentViewer();
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (viewer?.viewer.isDeleted) return null;
  const feed = viewer ? await firstPage(viewer) : undefined;
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      {viewer && feed ? (
        <>
          <DevicePush initial={feed.devices} place="push" />
          <NotificationFeed first={feed.first} renderedAt={feed.renderedAt} />
        </>
      ) : (
        <SignInPrompt returnTo="Push" />
      )}
    </Card>
  );
}

export default withClientMessages("(main)/push/page", PushPage);
