// GET /api/v1/post/newsPosts — the feed (withFriends=true: own, friends' and followed accounts' posts;
// otherwise every visible post) with the search filters text, author, tags, dateFrom, dateTo; paged.
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listNewsPosts } from "@/lib/server/services/posts/list-posts";

export const GET = withAuth(async ({ req, ctx }) => json(await listNewsPosts({ ctx, input: queryOf(req) })));
