// GET /api/v1/account/search — people search (name parts, age range, country, city, friends only), paged
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { searchAccounts } from "@/lib/server/services/accounts/search-accounts";

export const GET = withAuth(async ({ req, ctx }) => Response.json(await searchAccounts({ ctx, input: queryOf(req) })));
