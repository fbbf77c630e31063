// GET /api/v1/admin/reports/count — the number of open reported targets (staff; the admin sidebar's live count)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { countOpenReports } from "@/lib/server/services/reports/queue";

export const GET = withAuth(async ({ ctx }) => json(await countOpenReports({ ctx })));
