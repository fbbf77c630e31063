// GET /api/v1/admin/posts?text=&author=&dateFrom=&dateTo=&blocked=&page=&size= — publications for moderation
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listAdminPosts } from "@/lib/server/services/admin/content";

export const GET = withAuth(async ({ req, ctx }) => json(await listAdminPosts({ ctx, input: queryOf(req) })));
