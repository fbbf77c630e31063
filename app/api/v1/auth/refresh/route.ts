// POST /api/v1/auth/refresh — spends a refresh token (body or cookie) and returns a new pair. A client
// that sent its token in the body gets the pair in the body; a browser that sent the httpOnly cookie gets
// new cookies and {ok:true}, never the tokens themselves (script on the page must not see them).
import { REFRESH_COOKIE, readCookie } from "@/lib/server/auth/tokens";
import { clearAuthCookies, setAuthCookies } from "@/lib/server/http/auth-cookies";
import { readJson } from "@/lib/server/http/request";
import { errorResponse, withOptionalAuth } from "@/lib/server/http/with-auth";
import { refreshSession } from "@/lib/server/services/auth/refresh";
import { refreshInput } from "@/lib/validation/auth";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  const hasBody = (req.headers.get("content-type") ?? "").includes("json");
  const body = hasBody ? await readJson(req, refreshInput) : {};
  const fromBody = Boolean(body.refreshToken);
  const token = body.refreshToken ?? readCookie(req.headers.get("cookie"), REFRESH_COOKIE);
  try {
    const pair = await refreshSession({ ctx, refreshToken: token });
    return fromBody ? Response.json(pair) : setAuthCookies(Response.json({ ok: true }), pair);
  } catch (err) {
    // A refused refresh also clears the cookies, so the browser is plainly signed out.
    const res = errorResponse(err, req, ctx.requestId);
    return fromBody ? res : clearAuthCookies(res);
  }
});
