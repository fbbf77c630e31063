// PUT /api/v1/auth/password — {secret, password1, password2} from the mailed /shift-password link.
// Ends every session of the account; the account's own client gets a fresh pair: a Bearer client in the
// body, a browser (cookie) as httpOnly cookies only.
import { tokenFromHeaders } from "@/lib/server/auth/tokens";
import { setAuthCookies } from "@/lib/server/http/auth-cookies";
import { readJson } from "@/lib/server/http/request";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { changePassword } from "@/lib/server/services/auth/password-change";
import { passwordChangeInput } from "@/lib/validation/auth";

export const PUT = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, passwordChangeInput);
  const { tokens } = await changePassword({ ctx, input, userAgent: req.headers.get("user-agent") });
  if (!tokens) return Response.json({ ok: true, signedIn: false });
  const { fromCookie } = tokenFromHeaders({ authorization: req.headers.get("authorization"), cookie: req.headers.get("cookie") });
  if (fromCookie) return setAuthCookies(Response.json({ ok: true, signedIn: true }), tokens);
  return Response.json({ ok: true, signedIn: true, ...tokens });
});
