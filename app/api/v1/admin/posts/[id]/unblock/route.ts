// PUT /api/v1/admin/posts/{id}/unblock {reason?} — staff unblock a post (audited)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setContentBlocked } from "@/lib/server/services/admin/content";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) =>
  json(await setContentBlocked({ ctx, input: { id: params.id, body: await readOptionalJson(req) }, kind: "post", blocked: false })),
);
