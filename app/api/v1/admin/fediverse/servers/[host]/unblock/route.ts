// PUT /api/v1/admin/fediverse/servers/{host}/unblock {reason?} — administrators lift a server's block (audited, issue 43)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setServerBlocked } from "@/lib/server/services/admin/fediverse-servers";

export const PUT = withAuth<{ host: string }>(async ({ req, ctx, params }) =>
  json(await setServerBlocked({ ctx, input: { host: params.host, body: await readOptionalJson(req) }, blocked: false })),
);
