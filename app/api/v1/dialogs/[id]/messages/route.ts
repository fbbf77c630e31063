// POST /api/v1/dialogs/{id}/messages {messageText, clientId?} — sends a message; a retry with the same clientId answers the stored one (200)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { dialogIdParams, sendMessageInput } from "@/lib/validation/dialogs";

export const POST = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const { id: dialogId } = dialogIdParams.parse(params);
  const body = await readJson(req, sendMessageInput);
  const { message, created } = await sendMessage({ ctx, input: { ...body, dialogId } });
  return json(message, { status: created ? 201 : 200 });
});
