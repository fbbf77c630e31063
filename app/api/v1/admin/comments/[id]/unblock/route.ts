// PUT /api/v1/admin/comments/{id}/unblock {reason?} — staff unblock a comment (audited)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setContentBlocked } from "@/lib/server/services/admin/content";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) =>
  json(await setContentBlocked({ ctx, input: { id: params.id, body: await readOptionalJson(req) }, kind: "comment", blocked: false })),
);
