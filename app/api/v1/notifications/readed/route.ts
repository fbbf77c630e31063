// PUT /api/v1/notifications/readed — marks all the viewer's notifications read; answers {count} (0)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { markAllRead } from "@/lib/server/services/notifications/list";

export const PUT = withAuth(async ({ ctx }) => json(await markAllRead({ ctx })));
