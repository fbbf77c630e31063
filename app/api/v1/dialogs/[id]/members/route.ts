// GET /api/v1/dialogs/{id}/members?page=&size= — a group's present members with their roles (a present member asks);
// POST /api/v1/dialogs/{id}/members {accountIds} — a present member adds people (issue 41)
import { json } from "@/lib/server/http/response";
import { queryOf, readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { addMembers, listMembers } from "@/lib/server/services/dialogs/groups";
import { addMembersInput } from "@/lib/validation/dialogs";

export const GET = withAuth<{ id: string }>(async ({ req, ctx, params }) => json(await listMembers({ ctx, input: { id: params.id, query: queryOf(req) } })));

export const POST = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const { accountIds } = await readJson(req, addMembersInput);
  return json(await addMembers({ ctx, input: { id: params.id, accountIds } }));
});
