// GET /api/v1/account/{id} — another account as the viewer sees it; deleted or unknown → 404
import { withAccountById } from "@/lib/server/http/with-auth";
import { getAccount } from "@/lib/server/services/accounts/get-account";

// The session check reads the account too: one query for the whole request (docs/adr/0091).
export const GET = withAccountById(async ({ ctx, params, seen }) => Response.json(await getAccount({ ctx, input: params, seen })));
