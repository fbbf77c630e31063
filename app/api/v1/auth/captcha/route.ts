// GET /api/v1/auth/captcha — a new registration captcha: {secret, image} (image: a noisy PNG data URL)
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { issueCaptcha } from "@/lib/server/services/auth/captcha";

export const GET = withOptionalAuth(async ({ ctx }) => {
  await consumeLimit("captcha", ctx.ip);
  return Response.json(await issueCaptcha({ ctx }), { headers: { "cache-control": "no-store" } });
});
