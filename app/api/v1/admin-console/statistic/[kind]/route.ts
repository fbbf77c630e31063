// GET /api/v1/admin-console/statistic/{account|post|comment|like}?date=&firstMonth=&lastMonth= — the original client's statistics call
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { getConsoleStatistic } from "@/lib/server/services/admin/statistics";

export const GET = withAuth<{ kind: string }>(async ({ req, ctx, params }) =>
  json(await getConsoleStatistic({ ctx, input: { kind: params.kind, query: queryOf(req) } })),
);
