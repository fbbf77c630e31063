// GET /api/v1/admin/comments?text=&author=&dateFrom=&dateTo=&blocked=&page=&size= — comments for moderation
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listAdminComments } from "@/lib/server/services/admin/content";

export const GET = withAuth(async ({ req, ctx }) => json(await listAdminComments({ ctx, input: queryOf(req) })));
