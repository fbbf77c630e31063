// GET /api/v1/admin/fediverse/servers?page=&size= — the fediverse servers the administrators blocked (issue 43)
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listBlockedServers } from "@/lib/server/services/admin/fediverse-servers";

export const GET = withAuth(async ({ req, ctx }) => json(await listBlockedServers({ ctx, input: queryOf(req) })));
