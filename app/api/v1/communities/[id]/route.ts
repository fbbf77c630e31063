// GET /api/v1/communities/{id}; PATCH (its owner or an admin edits it); DELETE (its owner deletes it, restorable) — issue 42
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { deleteCommunity, getCommunity, updateCommunity } from "@/lib/server/services/communities/communities";
import { updateCommunityInput } from "@/lib/validation/communities";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => json(await getCommunity({ ctx, input: { id: params.id } })));

export const PATCH = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const body = await readJson(req, updateCommunityInput);
  return json(await updateCommunity({ ctx, input: { id: params.id, ...body } }));
});

export const DELETE = withAuth<{ id: string }>(async ({ ctx, params }) => json(await deleteCommunity({ ctx, input: { id: params.id } })));
