// PUT /api/v1/admin/users/{id}/role {role} — an administrator grants or revokes a role (audited)
import { readJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { setUserRole } from "@/lib/server/services/admin/users";
import { z } from "zod";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) =>
  json(await setUserRole({ ctx, input: { id: params.id, body: await readJson(req, z.unknown()) } })),
);
