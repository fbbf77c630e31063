// POST /api/v1/auth/login — e-mail and password → token pair as httpOnly cookies, and in the body unless the
// caller asked for a cookie session ({"session":"cookie"}, Krug's own sign-in form): then {ok:true} (ADR 113)
import { readJson } from "@/lib/server/http/request";
import { setAuthCookies } from "@/lib/server/http/auth-cookies";
import { UnauthorizedError } from "@/lib/server/http/errors";
import { assertLimitNotSpent, consumeLimit, countFailure, resetLimit } from "@/lib/server/http/rate-limit";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { login } from "@/lib/server/services/auth/login";
import { loginInput } from "@/lib/validation/auth";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, loginInput);
  // Every attempt counts per address. Wrong passwords count per account *and address*: a stranger
  // elsewhere cannot lock the owner out, and the right password never spends the allowance.
  await consumeLimit("loginIp", ctx.ip);
  const accountKey = `${input.email}|${ctx.ip}`;
  await assertLimitNotSpent("loginAccount", accountKey);
  try {
    const { accessToken, refreshToken } = await login({ ctx, input, userAgent: req.headers.get("user-agent") });
    await resetLimit("loginAccount", accountKey);
    const body = input.session === "cookie" ? { ok: true } : { accessToken, refreshToken };
    return setAuthCookies(Response.json(body), { accessToken, refreshToken });
  } catch (err) {
    if (err instanceof UnauthorizedError && err.message === "errors.badCredentials") await countFailure("loginAccount", accountKey);
    throw err;
  }
});
