// PUT /api/v1/post/{postId}/comment/{id}/recover — the author restores a deleted comment
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { recoverComment } from "@/lib/server/services/comments/comments";

export const PUT = withAuth<{ id: string; commentId: string }>(async ({ ctx, params }) =>
  json(await recoverComment({ ctx, input: { postId: params.id, id: params.commentId } })),
);
