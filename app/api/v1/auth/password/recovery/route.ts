// POST /api/v1/auth/password/recovery/ — mails a recovery link if the address has an account; always 200
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { readJson } from "@/lib/server/http/request";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { requestPasswordRecovery } from "@/lib/server/services/auth/recovery";
import { recoveryRequestInput } from "@/lib/validation/auth";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, recoveryRequestInput);
  await consumeLimit("recoveryIp", ctx.ip);
  await consumeLimit("mailAddress", input.email);
  await requestPasswordRecovery({ ctx, input });
  return Response.json({ ok: true });
});
