// GET /api/v1/post/{postId}/comment — top-level comments, newest first (page, size);
// POST {parentId?, commentText} — a comment or a reply; PUT {id, commentText} — the author edits.
// Bodies are parsed by the service verbs with the shared schemas of lib/validation/comment.ts.
import { z } from "zod";
import { json } from "@/lib/server/http/response";
import { queryOf, readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { createComment, editComment, listComments } from "@/lib/server/services/comments/comments";

type P = { id: string };

export const GET = withAuth<P>(async ({ req, ctx, params }) => json(await listComments({ ctx, input: { postId: params.id, query: queryOf(req) } })));

export const POST = withAuth<P>(async ({ req, ctx, params }) => {
  const body = await readJson(req, z.unknown(), 32 * 1024);
  return json(await createComment({ ctx, input: { postId: params.id, body } }), { status: 201 });
});

export const PUT = withAuth<P>(async ({ req, ctx, params }) => {
  const body = await readJson(req, z.unknown(), 32 * 1024);
  return json(await editComment({ ctx, input: { postId: params.id, body } }));
});
