// GET /api/v1/notifications/page?page=&size=&sort=sentTime,desc|asc — the viewer's notifications, paged
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { pageNotifications } from "@/lib/server/services/notifications/list";

export const GET = withAuth(async ({ req, ctx }) => json(await pageNotifications({ ctx, input: queryOf(req) })));
