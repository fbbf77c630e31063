// GET /api/v1/admin/statistics?from=&to=&interval=day|month — activity per day or month, with totals (staff only)
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { getStatistics } from "@/lib/server/services/admin/statistics";

export const GET = withAuth(async ({ req, ctx }) => json(await getStatistics({ ctx, input: queryOf(req) })));
