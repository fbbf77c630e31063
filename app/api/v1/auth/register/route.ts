// POST /api/v1/auth/register — a new account (captcha checked; language from the request) → 201 {id, email}
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { readJson } from "@/lib/server/http/request";
import { localeOfHeaders } from "@/lib/server/http/translate";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { register } from "@/lib/server/services/auth/register";
import { registerInput } from "@/lib/validation/auth";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, registerInput);
  await consumeLimit("register", ctx.ip);
  const account = await register({ ctx, input, language: localeOfHeaders(req.headers) });
  return Response.json(account, { status: 201 });
});
