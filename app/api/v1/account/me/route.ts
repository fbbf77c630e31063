// GET | PUT | DELETE /api/v1/account/me — the viewer's own account: read, edit (or restore), delete
import { readJson } from "@/lib/server/http/request";
import { withAuth, withOwnAccount } from "@/lib/server/http/with-auth";
import { deleteMyAccount } from "@/lib/server/services/accounts/delete-account";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { updateMyAccount } from "@/lib/server/services/accounts/update-account";
import { updateAccountInput } from "@/lib/validation/account";

// The session check reads the account too: one query for the whole request (docs/adr/0091).
export const GET = withOwnAccount(async ({ ctx, own }) => Response.json(await getMyAccount({ ctx, own })));

export const PUT = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, updateAccountInput);
  return Response.json(await updateMyAccount({ ctx, input }));
});

export const DELETE = withAuth(async ({ ctx }) => Response.json(await deleteMyAccount({ ctx })));
