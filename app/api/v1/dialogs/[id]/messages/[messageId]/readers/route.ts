// GET /api/v1/dialogs/{id}/messages/{messageId}/readers?page=&size= — who has read the author's group message (issue 41)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listReaders } from "@/lib/server/services/dialogs/groups";

type P = { id: string; messageId: string };

export const GET = withAuth<P>(async ({ req, ctx, params }) => json(await listReaders({ ctx, input: { id: params.id, messageId: params.messageId, query: queryOf(req) } })));
