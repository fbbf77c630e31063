// GET /api/v1/dialogs/{id} — one of the viewer's dialogs; PUT /api/v1/dialogs/{id} — marks it read for the viewer, answers the dialog;
// PATCH /api/v1/dialogs/{id} {title?, photo?} — the owner or an admin renames a group or changes its photo (issue 41)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { getDialog, markDialogRead } from "@/lib/server/services/dialogs/dialogs";
import { updateGroup } from "@/lib/server/services/dialogs/groups";
import { dialogIdParams, updateGroupInput } from "@/lib/validation/dialogs";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = dialogIdParams.parse(params);
  return json(await getDialog({ ctx, input }));
});

export const PUT = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = dialogIdParams.parse(params);
  return json(await markDialogRead({ ctx, input }));
});

export const PATCH = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const input = await readJson(req, updateGroupInput);
  return json(await updateGroup({ ctx, input: { id: params.id, ...input } }));
});
