// GET /api/v1/admin/reports?status=OPEN|RESOLVED&sort=newest|most&page=&size= — the moderation queue (staff; issue 26)
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listReportGroups } from "@/lib/server/services/reports/queue";

export const GET = withAuth(async ({ req, ctx }) => json(await listReportGroups({ ctx, input: queryOf(req) })));
