// PUT /api/v1/dialogs/{id}/mute {duration: HOUR | EIGHT_HOURS | FOREVER | OFF} — mutes a group for the viewer (issue 41)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { muteGroup } from "@/lib/server/services/dialogs/groups";
import { muteInput } from "@/lib/validation/dialogs";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const { duration } = await readJson(req, muteInput);
  return json(await muteGroup({ ctx, input: { id: params.id, duration } }));
});
