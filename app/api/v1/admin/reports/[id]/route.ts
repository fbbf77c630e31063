// PUT /api/v1/admin/reports/{id} {action: DISMISS|BLOCK_CONTENT|BLOCK_AUTHOR, reason, days?} — resolve a reported target (staff; issue 26)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { resolveReportGroup } from "@/lib/server/services/reports/queue";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) =>
  json(await resolveReportGroup({ ctx, input: { id: params.id, body: await readOptionalJson(req) } })),
);
