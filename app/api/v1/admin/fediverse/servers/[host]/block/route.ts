// PUT /api/v1/admin/fediverse/servers/{host}/block {reason?} — administrators block a whole server (audited, issue 43)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setServerBlocked } from "@/lib/server/services/admin/fediverse-servers";

export const PUT = withAuth<{ host: string }>(async ({ req, ctx, params }) =>
  json(await setServerBlocked({ ctx, input: { host: params.host, body: await readOptionalJson(req) }, blocked: true })),
);
