// GET /api/v1/dialogs — the viewer's dialogs (page, size, sort=unreadCount,desc); POST /api/v1/dialogs {recipientId} — the dialog with that person, created when there is none
import { json } from "@/lib/server/http/response";
import { queryOf, readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { createDialog, listDialogs } from "@/lib/server/services/dialogs/dialogs";
import { createDialogInput, dialogListQuery } from "@/lib/validation/dialogs";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = dialogListQuery.parse(queryOf(req));
  return json(await listDialogs({ ctx, input }));
});

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, createDialogInput);
  const { dialog, created } = await createDialog({ ctx, input });
  return json(dialog, { status: created ? 201 : 200 });
});
