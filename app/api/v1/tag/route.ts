// GET /api/v1/tag?name= — a plain array of at most 5 {id, name}: tags starting with the text, most used first
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { suggestTags } from "@/lib/server/services/posts/tags";

export const GET = withAuth(async ({ req, ctx }) => json(await suggestTags({ ctx, input: queryOf(req) })));
