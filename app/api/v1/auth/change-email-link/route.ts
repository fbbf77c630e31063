// POST /api/v1/auth/change-email-link — {email}: mails a confirmation link to that NEW address
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { requestEmailChangeLink } from "@/lib/server/services/auth/email-change";
import { emailChangeRequestInput } from "@/lib/validation/auth";

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, emailChangeRequestInput);
  // Per account and per target address: nobody can use us to flood an inbox.
  await consumeLimit("mailAddress", `account:${ctx.viewer.id}`);
  await consumeLimit("mailAddress", input.email);
  await requestEmailChangeLink({ ctx, input });
  return Response.json({ ok: true });
});
