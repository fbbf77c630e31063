// GET /api/v1/post/{id}/reactions?reactionType=&page=&size= — who reacted (issue 27): the page envelope
// of people, the viewer's friends first, then newest; one type or all. Bad parameters → 400.
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listPostReactors } from "@/lib/server/services/posts/reactors";

export const GET = withAuth<{ id: string }>(async ({ req, ctx, params }) => json(await listPostReactors({ ctx, input: { id: params.id, query: queryOf(req) } })));
