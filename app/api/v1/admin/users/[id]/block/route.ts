// PUT /api/v1/admin/users/{id}/block {reason?} — staff block an account (audited)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setUserBlocked } from "@/lib/server/services/admin/users";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) =>
  json(await setUserBlocked({ ctx, input: { id: params.id, body: await readOptionalJson(req) }, blocked: true })),
);
