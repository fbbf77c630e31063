import { getTranslations } from "next-intl/server";
import { currentViewer } from "@/components/layout/current-viewer";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { Card, CardHeader } from "@/components/ui/card";
import { NotificationFeed } from "@/components/notifications/notification-feed";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Push");

export default async function PushPage() {
  const t = await getTranslations("push");
  const viewer = await currentViewer();
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (viewer?.viewer.isDeleted) return null;
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")} />
      {viewer ? (
        <NotificationFeed />
      ) : (
        <SignInPrompt returnTo="Push" />
      )}
    </Card>
  );
}
