// POST /api/v1/auth/register — a new account (captcha checked; language from the request) → 201 {id, email},
// signed in at once: the token pair as httpOnly cookies, as after a sign-in
import { setAuthCookies } from "@/lib/server/http/auth-cookies";
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { readJson } from "@/lib/server/http/request";
import { localeOfHeaders } from "@/lib/server/http/translate";
import { setWelcomeCookie } from "@/lib/server/http/welcome-cookie";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { register } from "@/lib/server/services/auth/register";
import { registerInput } from "@/lib/validation/auth";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, registerInput);
  await consumeLimit("register", ctx.ip);
  const { id, email, accessToken, refreshToken } = await register({
    ctx,
    input,
    language: localeOfHeaders(req.headers),
    userAgent: req.headers.get("user-agent"),
  });
  return setWelcomeCookie(setAuthCookies(Response.json({ id, email }, { status: 201 }), { accessToken, refreshToken }), id);
});
