// GET /api/v1/account/{id} — another account as the viewer sees it; deleted or unknown → 404
import { withAuth } from "@/lib/server/http/with-auth";
import { getAccount } from "@/lib/server/services/accounts/get-account";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => Response.json(await getAccount({ ctx, input: params })));
