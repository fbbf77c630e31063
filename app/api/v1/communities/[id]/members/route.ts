// GET /api/v1/communities/{id}/members?status=&page=&size= — members (friends first), or requests, invitations, bans (admins);
// POST /api/v1/communities/{id}/members — join, ask to join, or accept an invitation (issue 42)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { joinCommunity, listCommunityMembers } from "@/lib/server/services/communities/members";

export const GET = withAuth<{ id: string }>(async ({ req, ctx, params }) => json(await listCommunityMembers({ ctx, input: { id: params.id, query: queryOf(req) } })));

export const POST = withAuth<{ id: string }>(async ({ ctx, params }) => json(await joinCommunity({ ctx, input: { id: params.id } })));
