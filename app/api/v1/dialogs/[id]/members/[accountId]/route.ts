// DELETE /api/v1/dialogs/{id}/members/{accountId} — leave (yourself) or remove someone (owner, admins);
// PUT /api/v1/dialogs/{id}/members/{accountId} {role} — the owner sets a role or hands ownership on (issue 41)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { removeMember, setMemberRole } from "@/lib/server/services/dialogs/groups";
import { memberRoleInput } from "@/lib/validation/dialogs";

type P = { id: string; accountId: string };

export const DELETE = withAuth<P>(async ({ ctx, params }) => json(await removeMember({ ctx, input: { id: params.id, accountId: params.accountId } })));

export const PUT = withAuth<P>(async ({ req, ctx, params }) => {
  const { role } = await readJson(req, memberRoleInput);
  return json(await setMemberRole({ ctx, input: { id: params.id, accountId: params.accountId, role } }));
});
