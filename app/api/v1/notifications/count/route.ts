// GET /api/v1/notifications/count — {count} of the viewer's unread notifications
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { countNotifications } from "@/lib/server/services/notifications/list";

export const GET = withAuth(async ({ ctx }) => json(await countNotifications({ ctx })));
