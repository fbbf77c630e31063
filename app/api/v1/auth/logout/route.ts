// POST /api/v1/auth/logout — revokes the session and clears both cookies
import { REFRESH_COOKIE, readCookie } from "@/lib/server/auth/tokens";
import { clearAuthCookies } from "@/lib/server/http/auth-cookies";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { logout } from "@/lib/server/services/auth/logout";

export const POST = withOptionalAuth(async ({ req, ctx }) => {
  await logout({ ctx, refreshToken: readCookie(req.headers.get("cookie"), REFRESH_COOKIE) });
  return clearAuthCookies(new Response(null, { status: 204 }));
});
