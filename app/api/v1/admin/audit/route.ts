// GET /api/v1/admin/audit?page=&size=&accountId= — the audit log of staff actions, newest first (read-only)
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listAudit } from "@/lib/server/services/admin/audit";

export const GET = withAuth(async ({ req, ctx }) => json(await listAudit({ ctx, input: queryOf(req) })));
