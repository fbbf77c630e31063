// GET /api/v1/dialogs/unread — {count}: unread messages over all the viewer's dialogs
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { countUnreadMessages } from "@/lib/server/services/dialogs/dialogs";
import { noDialogQuery } from "@/lib/validation/dialogs";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = noDialogQuery.parse(queryOf(req));
  return json(await countUnreadMessages({ ctx, input }));
});
