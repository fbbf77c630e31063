// PUT /api/v1/post/{id}/recover — the author restores a deleted post (issue 27; as comments' …/recover)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { recoverPost } from "@/lib/server/services/posts/write-posts";

export const PUT = withAuth<{ id: string }>(async ({ ctx, params }) => json(await recoverPost({ ctx, input: { id: params.id } })));
