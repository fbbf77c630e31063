import "server-only";
import type { NextRequest } from "next/server";
import { getDb, type Db } from "@/db/client";
import { resolveViewer, resolveViewerAccount, type Viewer } from "@/lib/server/auth/viewer";
import type { AccountDtoRow } from "@/lib/server/services/accounts/account-columns";
import { tokenFromHeaders } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { ForbiddenError, toErrorBody, UnauthorizedError } from "./errors";
import { clientIp, requestIdOf } from "./request";
import { localeOfHeaders, translate } from "./translate";
import type { Locale } from "@/lib/i18n/config";

export type Ctx<V extends Viewer | null = Viewer | null> = { viewer: V; db: Db; requestId: string; ip: string; locale: Locale };

type Args<P, V extends Viewer | null> = { req: NextRequest; ctx: Ctx<V>; params: P };
type Route<P> = (req: NextRequest, route: { params: Promise<P> }) => Promise<Response>;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A cookie-authenticated mutation must come from our own pages: the browser's Origin (or
 * Sec-Fetch-Site) says so. Bearer-token clients carry no ambient credentials and are exempt.
 */
function assertSameOrigin(req: NextRequest) {
  const origin = req.headers.get("origin");
  if (origin) {
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    const allowed = new Set([host, new URL(env().PUBLIC_URL).host].filter(Boolean));
    if (!originHost || !allowed.has(originHost)) throw new ForbiddenError("Cross-origin request refused");
    return;
  }
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") throw new ForbiddenError("Cross-origin request refused");
}

/**
 * A path as it may be logged: a segment that looks like a mailed secret (the recovery link's
 * /auth/password/recovery/{secret}, 20+ URL-safe characters) is replaced, so logs never hold one.
 */
export function redactPath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => (/^[A-Za-z0-9_%-]{20,}$/.test(segment) ? ":secret" : segment))
    .join("/");
}

/** The envelope for anything thrown, in the request's language; unexpected errors are logged, never sent. */
export function errorResponse(err: unknown, req: NextRequest, requestId: string): Response {
  const out = toErrorBody(err, requestId);
  if (out.unexpected) log.error({ err, requestId, path: redactPath(req.nextUrl.pathname) }, "unhandled error");
  const locale = localeOfHeaders(req.headers);
  out.body.error.message = translate(locale, out.body.error.message);
  out.body.error.issues = out.body.error.issues?.map((i) => ({ ...i, message: translate(locale, i.message) }));
  return Response.json(out.body, { status: out.status, headers: out.headers });
}

function wrap<P, V extends Viewer | null>(
  handler: (args: Args<P, V> & { own?: AccountDtoRow }) => Promise<Response>,
  auth: "required" | "optional" | "required with own account",
): Route<P> {
  return async (req, route) => {
    const started = performance.now();
    const requestId = requestIdOf(req.headers);
    const db = getDb();
    let viewer: Viewer | null = null;
    let own: AccountDtoRow | undefined;
    let response: Response;
    try {
      const { token, fromCookie } = tokenFromHeaders({
        authorization: req.headers.get("authorization"),
        cookie: req.headers.get("cookie"),
      });
      if (auth === "required with own account") {
        const found = await resolveViewerAccount(db, token, env().AUTH_SECRET);
        viewer = found?.viewer ?? null;
        own = found?.account;
      } else {
        viewer = await resolveViewer(db, token, env().AUTH_SECRET);
      }
      if (!viewer && auth !== "optional") throw new UnauthorizedError();
      if (fromCookie && !SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      const params = (await route.params) ?? ({} as P);
      const ctx = { viewer: viewer as V, db, requestId, ip: clientIp(req.headers), locale: localeOfHeaders(req.headers) };
      response = await handler({ req, ctx, params, own });
    } catch (err) {
      response = errorResponse(err, req, requestId);
    }
    response.headers.set("x-request-id", requestId);
    log.info(
      {
        requestId,
        method: req.method,
        path: redactPath(req.nextUrl.pathname),
        status: response.status,
        durationMs: Math.round(performance.now() - started),
        accountId: viewer?.id,
      },
      "request",
    );
    return response;
  };
}

/** A route handler for a signed-in viewer: 401 in the standard envelope otherwise. */
export function withAuth<P = Record<string, never>>(handler: (args: Args<P, Viewer>) => Promise<Response>): Route<P> {
  return wrap<P, Viewer>(handler, "required");
}

/**
 * withAuth for a handler that needs the viewer's own account row (account/me): the session check
 * reads it in the same query, so the handler makes no second round trip (docs/adr/0091).
 */
export function withOwnAccount<P = Record<string, never>>(
  handler: (args: Args<P, Viewer> & { own: AccountDtoRow }) => Promise<Response>,
): Route<P> {
  return wrap<P, Viewer>((args) => handler({ ...args, own: args.own! }), "required with own account");
}

/** A route handler open to everyone; ctx.viewer is the signed-in account or null. */
export function withOptionalAuth<P = Record<string, never>>(
  handler: (args: Args<P, Viewer | null>) => Promise<Response>,
): Route<P> {
  return wrap<P, Viewer | null>(handler, "optional");
}
