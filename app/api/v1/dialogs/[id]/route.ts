// GET /api/v1/dialogs/{id} — one of the viewer's dialogs; PUT /api/v1/dialogs/{id} — marks it read for the viewer, answers the dialog
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { getDialog, markDialogRead } from "@/lib/server/services/dialogs/dialogs";
import { dialogIdParams } from "@/lib/validation/dialogs";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = dialogIdParams.parse(params);
  return json(await getDialog({ ctx, input }));
});

export const PUT = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = dialogIdParams.parse(params);
  return json(await markDialogRead({ ctx, input }));
});
