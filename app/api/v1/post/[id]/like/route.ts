// POST /api/v1/post/{id}/like {type: "POST", reactionType} — set or replace the viewer's reaction;
// DELETE — remove it. Both answer the post's counts after the change.
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { removePostReaction, setPostReaction } from "@/lib/server/services/posts/reactions";
import { z } from "zod";

export const POST = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  // A request without a body is a plain like (thumbs-up).
  const body = req.headers.get("content-type") ? await readJson(req, z.unknown(), 1024) : {};
  return json(await setPostReaction({ ctx, input: { id: params.id, body } }));
});

export const DELETE = withAuth<{ id: string }>(async ({ ctx, params }) => json(await removePostReaction({ ctx, input: { id: params.id } })));
