// GET /api/v1/post — a wall (accountIds or accountId; size 3) or, without them, the feed with the
// filters of post/newsPosts. POST creates a post; PUT edits one (id in the body).
// The bodies and queries are parsed by the service verbs with the shared schemas of
// lib/validation/post.ts (their outputs are not re-parsable inputs, so parsing happens once, there).
import { z } from "zod";
import { json } from "@/lib/server/http/response";
import { queryOf, readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listPosts } from "@/lib/server/services/posts/list-posts";
import { createPost, editPost } from "@/lib/server/services/posts/write-posts";

/** Post HTML may be long and Cyrillic takes two bytes a character. */
const POST_BODY_LIMIT = 256 * 1024;

export const GET = withAuth(async ({ req, ctx }) => json(await listPosts({ ctx, input: queryOf(req) })));

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, z.unknown(), POST_BODY_LIMIT);
  return json(await createPost({ ctx, input }), { status: 201 });
});

export const PUT = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, z.unknown(), POST_BODY_LIMIT);
  return json(await editPost({ ctx, input }));
});
