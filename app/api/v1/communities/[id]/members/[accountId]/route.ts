// PUT /api/v1/communities/{id}/members/{accountId} {role?|status?} — accept, ban, give a role, hand on;
// DELETE — leave, take back a request, decline; an admin removes, refuses, withdraws, unbans (issue 42)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { removeCommunityMember, updateCommunityMember } from "@/lib/server/services/communities/members";
import { updateMemberInput } from "@/lib/validation/communities";

type P = { id: string; accountId: string };

export const PUT = withAuth<P>(async ({ req, ctx, params }) => {
  const body = await readJson(req, updateMemberInput);
  return json(await updateCommunityMember({ ctx, input: { id: params.id, accountId: params.accountId, ...body } }));
});

export const DELETE = withAuth<P>(async ({ ctx, params }) => json(await removeCommunityMember({ ctx, input: { id: params.id, accountId: params.accountId } })));
