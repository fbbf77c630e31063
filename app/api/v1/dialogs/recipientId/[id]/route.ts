// GET /api/v1/dialogs/recipientId/{id} — the viewer's dialog with that person, 404 while there is none
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { getDialogWithRecipient } from "@/lib/server/services/dialogs/dialogs";
import { dialogByRecipientParams } from "@/lib/validation/dialogs";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = dialogByRecipientParams.parse(params);
  return json(await getDialogWithRecipient({ ctx, input }));
});
