// PUT /api/v1/notifications/readed — marks the viewer's notifications read: all (no body), or {ids} only those
// (issue 27: the bell marks what it shows); answers {count}, the unread left
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { markAllRead } from "@/lib/server/services/notifications/list";

export const PUT = withAuth(async ({ req, ctx }) => json(await markAllRead({ ctx, input: await readOptionalJson(req) })));
