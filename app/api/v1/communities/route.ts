// GET /api/v1/communities?query=&memberId=&membership=&page=&size= — find communities, or a person's;
// POST /api/v1/communities {name, description?, type, wall?, photo?, cover?} — a new community (issue 42)
import { json } from "@/lib/server/http/response";
import { queryOf, readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { createCommunity, listCommunities } from "@/lib/server/services/communities/communities";
import { communityListQuery, createCommunityInput } from "@/lib/validation/communities";

export const GET = withAuth(async ({ req, ctx }) => json(await listCommunities({ ctx, input: communityListQuery.parse(queryOf(req)) })));

export const POST = withAuth(async ({ req, ctx }) => json(await createCommunity({ ctx, input: await readJson(req, createCommunityInput) }), { status: 201 }));
