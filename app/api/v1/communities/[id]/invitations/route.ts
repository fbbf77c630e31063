// POST /api/v1/communities/{id}/invitations {accountId} — a member invites a friend (issue 42)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { inviteToCommunity } from "@/lib/server/services/communities/members";
import { inviteInput } from "@/lib/validation/communities";

export const POST = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const { accountId } = await readJson(req, inviteInput);
  return json(await inviteToCommunity({ ctx, input: { id: params.id, accountId } }), { status: 201 });
});
