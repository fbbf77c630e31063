import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { cache } from "react";
import { ChatView } from "@/components/chat/chat-view";
import { currentViewer, requireViewer } from "@/components/layout/current-viewer";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { MessageIcon } from "@/components/ui/icons";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { dialogName } from "@/lib/client/chat/group";
import { pathOf } from "@/lib/routes";
import { NotFoundError } from "@/lib/server/http/errors";
import { getDialog } from "@/lib/server/services/dialogs/dialogs";
import { listMessages } from "@/lib/server/services/dialogs/messages";
import { MESSAGE_PAGE_DEFAULT } from "@/lib/validation/dialogs";
import { withClientMessages } from "@/components/layout/client-messages";

type Props = { params: Promise<{ activeDialogId: string }> };

/**
 * The viewer's dialog of this request (the metadata and the page ask once), or null: signed out, a
 * deleted viewer, a malformed id, or someone else's or an unknown dialog.
 */
const loadDialog = cache(async (activeDialogId: string) => {
  const current = await currentViewer();
  const dialogId = Number(activeDialogId);
  if (!current || current.viewer.isDeleted || !pathOf("ImChat", { activeDialogId }) || !Number.isSafeInteger(dialogId)) return null;
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "im-chat-page" };
  // The same service verb as GET dialogs/{id}: someone else's dialog is a 404 there and "not found" here.
  return getDialog({ ctx, input: { id: dialogId } }).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
});

/**
 * The tab names the partner, as the chat's heading does (issue 24 item 19), or a group's title (issue 41);
 * «Диалог» when there is no dialog to show.
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const dialog = await loadDialog((await params).activeDialogId);
  if (!dialog) return routeMetadata("ImChat");
  const name = dialogName(dialog);
  return name ? { title: name } : routeMetadata("ImChat");
}

/**
 * /im/{id}: one dialog of the viewer, its newest page of history rendered here through the services;
 * someone else's dialog looks exactly like one that does not exist.
 */
async function ImChatPage({ params }: Props) {
  const { activeDialogId } = await params;
  // A malformed id is an unknown path (spec section 2): the news page.
  if (!pathOf("ImChat", { activeDialogId })) redirect("/");
  const current = await requireViewer("ImChat", { activeDialogId });
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current.viewer.isDeleted) return null;
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "im-chat-page" };
  const dialog = await loadDialog(activeDialogId);
  if (!dialog) {
    const t = await getTranslations("im");
    return (
      <Card>
        <CardHeader as="h1" title={t("heading")} />
        <EmptyState icon={<MessageIcon size={28} />} title={t("dialogNotFoundTitle")} text={t("dialogNotFoundText")}>
          <ButtonLink href="/im">{t("toDialogs")}</ButtonLink>
        </EmptyState>
      </Card>
    );
  }
  const page = await listMessages({ ctx, input: { dialogId: dialog.id, page: 0, size: MESSAGE_PAGE_DEFAULT, sort: "time,desc" } });
  // The key remounts the chat when the person follows a link from one dialog to another.
  return <ChatView key={dialog.id} dialog={dialog} initialPage={page} viewerId={current.viewer.id} />;
}

export default withClientMessages("(main)/im/[activeDialogId]/page", ImChatPage);
