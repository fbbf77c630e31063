// PUT /api/v1/post/{postId}/comment/{parentId} {commentText} — a reply; DELETE /api/v1/post/{postId}/comment/{id} — the author deletes
import { z } from "zod";
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { deleteComment, replyToComment } from "@/lib/server/services/comments/comments";

type P = { id: string; commentId: string };

export const PUT = withAuth<P>(async ({ req, ctx, params }) => {
  const body = await readJson(req, z.unknown(), 32 * 1024);
  return json(await replyToComment({ ctx, input: { postId: params.id, parentId: params.commentId, body } }), { status: 201 });
});

export const DELETE = withAuth<P>(async ({ ctx, params }) => json(await deleteComment({ ctx, input: { postId: params.id, id: params.commentId } })));
