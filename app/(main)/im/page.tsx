import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { DialogList } from "@/components/chat/dialog-list";
import { DialogOpener } from "@/components/chat/dialog-opener";
import { NewGroupButton } from "@/components/chat/new-group";
import { requireViewer } from "@/components/layout/current-viewer";
import { Card, CardHeader } from "@/components/ui/card";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { ServiceError } from "@/lib/server/http/errors";
import { getDialogWithRecipient, listDialogs } from "@/lib/server/services/dialogs/dialogs";
import { DIALOG_PAGE_DEFAULT, positiveIdSchema } from "@/lib/validation/dialogs";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Im");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * /im: the viewer's dialogs, the first page rendered here through the service (unread first, then the
 * newest message), kept live on the client. With ?recipientId= (a profile's "write a message") it
 * opens the dialog with that person, creating it when there is none (spec section 8).
 */
async function ImPage({ searchParams }: Props) {
  const current = await requireViewer("Im");
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current.viewer.isDeleted) return null;
  const t = await getTranslations("im");
  const raw = (await searchParams).recipientId;
  const recipient = raw === undefined ? null : positiveIdSchema.safeParse(Array.isArray(raw) ? raw[0] : raw);
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "im-page" };
  if (recipient?.success) {
    // The dialog exists already: straight to it. Otherwise the client creates it (spec section 8).
    const existing = await getDialogWithRecipient({ ctx, input: { id: recipient.data } }).catch((err: unknown) => {
      // None yet (404), or a refusal (yourself, a block): the client shows what the API answers.
      if (err instanceof ServiceError) return null;
      throw err;
    });
    if (existing) redirect(`/im/${existing.id}`);
    return (
      <Card padded>
        <DialogOpener recipientId={recipient.data} />
      </Card>
    );
  }

  const page = await listDialogs({ ctx, input: { page: 0, size: DIALOG_PAGE_DEFAULT, sort: "unreadCount,desc" } });
  return (
    <Card>
      <CardHeader as="h1" title={t("heading")}>
        <NewGroupButton />
      </CardHeader>
      <DialogList initialPage={page} viewerId={current.viewer.id} />
    </Card>
  );
}

export default withClientMessages("(main)/im/page", ImPage);
