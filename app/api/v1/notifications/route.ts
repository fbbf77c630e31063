// GET /api/v1/notifications — the spec's list form {notifications, totalElements, totalPages}: the newest 20
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { listNotifications } from "@/lib/server/services/notifications/list";

export const GET = withAuth(async ({ ctx }) => json(await listNotifications({ ctx })));
