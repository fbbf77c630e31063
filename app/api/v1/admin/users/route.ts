// GET /api/v1/admin/users?query=&blocked=&deleted=&role=&page=&size= — accounts for staff, newest first
import { queryOf } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listUsers } from "@/lib/server/services/admin/users";

export const GET = withAuth(async ({ req, ctx }) => json(await listUsers({ ctx, input: queryOf(req) })));
