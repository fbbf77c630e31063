// POST /api/v1/communities/{id}/restore — its owner restores a deleted community within the restore window (issue 42)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { restoreCommunity } from "@/lib/server/services/communities/communities";

export const POST = withAuth<{ id: string }>(async ({ ctx, params }) => json(await restoreCommunity({ ctx, input: { id: params.id } })));
