// GET /api/v1/dialogs/messages — one page of a dialog's messages (dialogId or recipientId, page, size, sort=time,desc|asc, beforeId)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listMessages } from "@/lib/server/services/dialogs/messages";
import { messageListQuery } from "@/lib/validation/dialogs";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = messageListQuery.parse(queryOf(req));
  return json(await listMessages({ ctx, input }));
});
