// POST /api/v1/auth/login — e-mail and password → token pair in the body and as httpOnly cookies
import { readJson } from "@/lib/server/http/request";
import { setAuthCookies } from "@/lib/server/http/auth-cookies";
import { consumeLimit, resetLimit } from "@/lib/server/http/rate-limit";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { login } from "@/lib/server/services/auth/login";
import { loginInput } from "@/lib/validation/auth";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, loginInput);
  // Every attempt counts per address and per account; a successful sign-in clears the account's count.
  await consumeLimit("loginIp", ctx.ip);
  await consumeLimit("loginAccount", input.email);
  const { accessToken, refreshToken } = await login({ ctx, input, userAgent: req.headers.get("user-agent") });
  await resetLimit("loginAccount", input.email);
  return setAuthCookies(Response.json({ accessToken, refreshToken }), { accessToken, refreshToken });
});
