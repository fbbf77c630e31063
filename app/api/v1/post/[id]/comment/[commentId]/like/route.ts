// POST /api/v1/post/{postId}/comment/{id}/like — like a comment; DELETE — take the like back (no body)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { likeComment, unlikeComment } from "@/lib/server/services/comments/comments";

type P = { id: string; commentId: string };

export const POST = withAuth<P>(async ({ ctx, params }) => json(await likeComment({ ctx, input: { postId: params.id, id: params.commentId } })));

export const DELETE = withAuth<P>(async ({ ctx, params }) => json(await unlikeComment({ ctx, input: { postId: params.id, id: params.commentId } })));
