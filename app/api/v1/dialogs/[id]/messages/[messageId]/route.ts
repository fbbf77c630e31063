// PUT /api/v1/dialogs/{id}/messages/{messageId} {messageText} — the author edits a message (24 hours);
// DELETE /api/v1/dialogs/{id}/messages/{messageId}?forEveryone=true|false — deletes it for both (the author, 24 hours) or for oneself
import { json } from "@/lib/server/http/response";
import { queryOf, readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { deleteMessage, editMessage } from "@/lib/server/services/dialogs/changes";
import { editMessageInput } from "@/lib/validation/dialogs";

type P = { id: string; messageId: string };

export const PUT = withAuth<P>(async ({ req, ctx, params }) => {
  const { messageText } = await readJson(req, editMessageInput);
  return json(await editMessage({ ctx, input: { id: params.id, messageId: params.messageId, messageText } }));
});

export const DELETE = withAuth<P>(async ({ req, ctx, params }) =>
  json(await deleteMessage({ ctx, input: { id: params.id, messageId: params.messageId, query: queryOf(req) } })),
);
