import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { ACCESS_COOKIE, REFRESH_COOKIE, verifyAccessToken } from "@/lib/server/auth/tokens";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { clearAuthCookies, setAuthCookies } from "@/lib/server/http/auth-cookies";
import { requestIdOf } from "@/lib/server/http/request";
import { newNonce, pageCsp } from "@/lib/server/http/security-headers";
import { refreshSession } from "@/lib/server/services/auth/refresh";
import type { TokenPair } from "@/lib/server/services/auth/sessions";
import { isProfileListed } from "@/lib/server/services/profiles/public-profile";
import { communityStatus } from "@/lib/server/services/communities/public";
import { decideRoute, LOGIN_PATH, matchRoute, pathOf } from "@/lib/routes";
import { accountOfShortName } from "@/lib/server/federation/actors";
import { COMMENT_PATH, federationResponse, isFederationRequest } from "@/lib/server/federation/handler";
import { ACCOUNT_HEADER, DEVICE_REQUEST_HEADER } from "@/lib/pwa/worker/device";
import { deviceAccountOf } from "@/lib/server/http/device-account";

/** `/@name`: the profile of the account that chose that short fediverse name (issue 43). */
const SHORT_NAME_PATH = /^\/@([A-Za-z0-9_]{3,32})$/;

/**
 * The page guard of spec section 2 (Next 16 proxy, Node runtime). "Signed in" means a valid access
 * token; an expired one is renewed here with the refresh cookie, and the new pair reaches both the
 * browser (Set-Cookie) and this request's render (forwarded Cookie header), so the page is already
 * rendered for the signed-in viewer.
 */

/** `accountId` only when the session was checked against the database (a confirmed one). */
type Session = { signedIn: boolean; pair?: TokenPair; cleared?: boolean; accountId?: number };

/**
 * A prefetch (the router's, or the browser's speculative load) must not rotate the refresh token: it
 * races the real navigation with the same cookie, and its Set-Cookie may never be applied.
 */
function isPrefetch(request: NextRequest): boolean {
  const h = request.headers;
  return h.get("next-router-prefetch") === "1" || /prefetch/i.test(h.get("sec-purpose") ?? h.get("purpose") ?? "");
}

async function sessionOf(request: NextRequest, confirm: boolean): Promise<Session> {
  const secret = env().AUTH_SECRET;
  const access = request.cookies.get(ACCESS_COOKIE)?.value;
  if (access && (await verifyAccessToken(access, secret))) {
    // The token alone does not know about a revoked session. Where a wrong "yes" would bounce the user
    // away (the login page), ask the database; elsewhere the page itself checks and sends to login.
    if (!confirm) return { signedIn: true };
    const viewer = await resolveViewer(getDb(), access, secret);
    if (viewer) return { signedIn: true, accountId: viewer.id };
  }
  const refreshToken = request.cookies.get(REFRESH_COOKIE)?.value;
  if (!refreshToken) return { signedIn: false, cleared: Boolean(access) };
  // Renewal is left to the navigation itself; the prefetch is answered as for a signed-in browser.
  if (isPrefetch(request)) return { signedIn: true };
  try {
    const pair = await refreshSession({
      ctx: { viewer: null, db: getDb(), requestId: requestIdOf(request.headers) },
      refreshToken,
    });
    // A renewed pair was checked against the database by the renewal itself.
    return { signedIn: true, pair, accountId: (await verifyAccessToken(pair.accessToken, secret))?.accountId };
  } catch {
    return { signedIn: false, cleared: true };
  }
}

/** The request's Cookie header with the auth cookies replaced (or dropped), for the page render. */
function forwardedHeaders(request: NextRequest, session: Session, csp: string, nonce: string): Headers {
  const headers = new Headers(request.headers);
  // Next reads the nonce from the request's CSP and puts it on its scripts; the layout reads x-nonce.
  headers.set("content-security-policy", csp);
  headers.set("x-nonce", nonce);
  if (!session.pair && !session.cleared) return headers;
  const jar = new Map(request.cookies.getAll().map((c) => [c.name, c.value]));
  jar.delete(ACCESS_COOKIE);
  jar.delete(REFRESH_COOKIE);
  if (session.pair) {
    jar.set(ACCESS_COOKIE, session.pair.accessToken);
    jar.set(REFRESH_COOKIE, session.pair.refreshToken);
  }
  const cookie = [...jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  if (cookie) headers.set("cookie", cookie);
  else headers.delete("cookie");
  return headers;
}

/**
 * /profile/{id} of a deleted or unknown account answers 404 (docs/adr/0014). The page streams behind
 * the main layout's loading UI, and a streamed response is already 200, so the status must be set
 * before rendering: one primary-key probe, only for that route. The page renders the designed card.
 * /community/{id} likewise: to a signed-out visitor one without a public shell, to anyone a missing or blocked one.
 */
async function statusOf(pathname: string, signedIn: boolean): Promise<number | undefined> {
  const match = matchRoute(pathname);
  if (match?.route.name === "CommunityId") return communityStatus(getDb(), match.params.id, signedIn);
  // A malformed id is an unknown path: the page sends it to the news page.
  if (match?.route.name !== "ProfileId" || !pathOf("ProfileId", match.params)) return undefined;
  return (await isProfileListed(getDb(), Number(match.params.id))) ? undefined : 404;
}

export async function proxy(request: NextRequest) {
  const short = SHORT_NAME_PATH.exec(request.nextUrl.pathname);
  const shortId = short ? await accountOfShortName(getDb(), short[1]!) : null;
  // The fediverse's requests (WebFinger, NodeInfo, inboxes, and actors and notes asked for as ActivityPub
  // JSON) are answered by the federation module; anything it does not answer is a page as for anyone.
  if (isFederationRequest(request.nextUrl.pathname, request.method, request.headers.get("accept"))) {
    const answer = await federationResponse(request, shortId ? `/profile/${shortId}` : undefined);
    if (answer) return answer;
  }
  // A reply's URI from the fediverse, opened in a browser: the comment under its post.
  const comment = COMMENT_PATH.exec(request.nextUrl.pathname);
  if (comment) return NextResponse.redirect(new URL(`/post/${comment[1]}#comment-${comment[2]}`, request.url));
  const pathname = shortId ? `/profile/${shortId}` : request.nextUrl.pathname;
  // The worker's fetch of a page it may keep on the device: the session is checked against the database,
  // so a revoked one is seen on this very request and its page is not kept.
  const forDevice = request.headers.get(DEVICE_REQUEST_HEADER) === "1";
  const session = await sessionOf(request, pathname === LOGIN_PATH || forDevice);
  const decision = decideRoute(pathname, session.signedIn);
  // Only a document answers 404: the client router's RSC fetches (prefetches of a link to a blocked or
  // deleted account among them) get the designed card with 200, so no expected answer is logged in the
  // browser's console as a failed load, and a click renders the card without a full reload (docs/adr/0117).
  // Next strips its RSC headers before the proxy runs; a browser marks its fetch() calls `Sec-Fetch-Dest:
  // empty`, and a crawler or a browser without the header gets the 404 as before.
  const document = request.headers.get("sec-fetch-dest") !== "empty" || forDevice;
  const status = decision.kind === "next" && document ? await statusOf(pathname, session.signedIn) : undefined;
  const nonce = newNonce();
  const csp = pageCsp(nonce, process.env.NODE_ENV === "development");
  const response =
    decision.kind === "redirect"
      ? NextResponse.redirect(new URL(decision.to, request.url))
      : shortId
        ? NextResponse.rewrite(new URL(pathname, request.url), { status, request: { headers: forwardedHeaders(request, session, csp, nonce) } })
        : NextResponse.next({ status, request: { headers: forwardedHeaders(request, session, csp, nonce) } });
  response.headers.set("content-security-policy", csp);
  if (forDevice && decision.kind === "next" && session.accountId !== undefined) response.headers.set(ACCOUNT_HEADER, deviceAccountOf(session.accountId, env().AUTH_SECRET));
  if (session.pair) setAuthCookies(response, session.pair);
  else if (session.cleared) clearAuthCookies(response);
  return response;
}

export const config = {
  // Pages only: the API answers for itself (401 in the JSON envelope), and static files need no guard.
  // NodeInfo's document (`/nodeinfo/2.1`) looks like a file by its name, and is the fediverse's (issue 43).
  matcher: ["/((?!api/|api$|_next/static|_next/image|favicon\\.ico|.*\\.[A-Za-z0-9]+$).*)", "/nodeinfo/:version"],
};
