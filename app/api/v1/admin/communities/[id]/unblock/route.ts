// PUT /api/v1/admin/communities/{id}/unblock {reason?} — staff unblock a community (audited)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setCommunityBlocked } from "@/lib/server/services/admin/communities";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) =>
  json(await setCommunityBlocked({ ctx, input: { id: params.id, body: await readOptionalJson(req) }, blocked: false })),
);
