// POST /api/v1/post/{id}/repost {comment?} — the viewer shares a post on their own wall (issue 27): 201 with the new post
import { z } from "zod";
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { repostPost } from "@/lib/server/services/posts/write-posts";

export const POST = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  // No body at all is a repost without words; a body is JSON (post HTML may be long: the posts' limit).
  const empty = !req.headers.get("content-type") && !Number(req.headers.get("content-length") ?? "0");
  const body = empty ? {} : await readJson(req, z.unknown(), 256 * 1024);
  return json(await repostPost({ ctx, input: { id: params.id, body } }), { status: 201 });
});
