// POST /api/v1/auth/change-password-link — mails the signed-in account a link to /shift-password
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { withAuth } from "@/lib/server/http/with-auth";
import { requestPasswordChangeLink } from "@/lib/server/services/auth/password-change";

export const POST = withAuth(async ({ ctx }) => {
  await consumeLimit("mailAddress", `account:${ctx.viewer.id}`);
  await requestPasswordChangeLink({ ctx });
  return Response.json({ ok: true });
});
