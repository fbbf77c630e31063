// GET /api/v1/post/{id} — one post (404 when deleted, unknown or not visible); DELETE — the author deletes it
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { deletePost, getPost } from "@/lib/server/services/posts/write-posts";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => json(await getPost({ ctx, input: { id: params.id } })));

export const DELETE = withAuth<{ id: string }>(async ({ ctx, params }) => json(await deletePost({ ctx, input: { id: params.id } })));
