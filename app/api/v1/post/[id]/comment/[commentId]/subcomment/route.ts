// GET /api/v1/post/{postId}/comment/{commentId}/subcomment — the replies of a comment, oldest first (page, size)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listSubcomments } from "@/lib/server/services/comments/comments";

export const GET = withAuth<{ id: string; commentId: string }>(async ({ req, ctx, params }) =>
  json(await listSubcomments({ ctx, input: { postId: params.id, id: params.commentId, query: queryOf(req) } })),
);
