import "server-only";
import type { NextRequest } from "next/server";
import { getDb, type Db } from "@/db/client";
import { resolveViewer, resolveViewerAccount, resolveViewerWithAccount, type SeenAccount, type Viewer } from "@/lib/server/auth/viewer";
import { accountIdParams } from "@/lib/validation/account";
import type { AccountDtoRow } from "@/lib/server/services/accounts/account-columns";
import { tokenFromHeaders } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { ForbiddenError, toErrorBody, UnauthorizedError } from "./errors";
import { clientIp, requestIdOf } from "./request";
import { redactPath } from "./redact-path";
import { localeOfHeaders, translate } from "./translate";
import type { Locale } from "@/lib/i18n/config";

export type Ctx<V extends Viewer | null = Viewer | null> = { viewer: V; db: Db; requestId: string; ip: string; locale: Locale };

type Args<P, V extends Viewer | null> = { req: NextRequest; ctx: Ctx<V>; params: P };
type Route<P> = (req: NextRequest, route: { params: Promise<P> }) => Promise<Response>;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A cookie-authenticated mutation must come from our own pages: the browser's Origin (or
 * Sec-Fetch-Site) says so. Bearer-token clients carry no ambient credentials and are exempt.
 * X-Forwarded-Host names our host only behind a proxy we trust (TRUST_PROXY); without one, anyone
 * can send it, so only Host and PUBLIC_URL count (issue 24 item 8).
 */
function assertSameOrigin(req: NextRequest) {
  const origin = req.headers.get("origin");
  if (origin) {
    const forwarded = env().TRUST_PROXY > 0 ? req.headers.get("x-forwarded-host") : null;
    const host = forwarded ?? req.headers.get("host");
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

/** The envelope for anything thrown, in the request's language; unexpected errors are logged, never sent. */
export function errorResponse(err: unknown, req: NextRequest, requestId: string): Response {
  const out = toErrorBody(err, requestId);
  if (out.unexpected) log.error({ err, requestId, path: redactPath(req.nextUrl.pathname) }, "unhandled error");
  else if (out.status === 503) log.warn({ err, requestId, path: redactPath(req.nextUrl.pathname) }, "database unavailable");
  const locale = localeOfHeaders(req.headers);
  out.body.error.message = translate(locale, out.body.error.message);
  out.body.error.issues = out.body.error.issues?.map((i) => ({ ...i, message: translate(locale, i.message) }));
  return Response.json(out.body, { status: out.status, headers: out.headers });
}

/**
 * How a route finds its viewer: the plain session check, or one that reads what the handler needs in
 * the same statement (`extra`), so the handler makes no second round trip (docs/adr/0091).
 */
type Resolver<P, X> = (db: Db, token: string | undefined, secret: string, params: P) => Promise<{ viewer: Viewer; extra: X } | null>;

const plainViewer: Resolver<unknown, undefined> = async (db, token, secret) => {
  const viewer = await resolveViewer(db, token, secret);
  return viewer && { viewer, extra: undefined };
};

function wrap<P, V extends Viewer | null, X = undefined>(
  handler: (args: Args<P, V> & { extra: X }) => Promise<Response>,
  auth: "required" | "optional",
  resolve: Resolver<P, X> = plainViewer as Resolver<P, X>,
): Route<P> {
  return async (req, route) => {
    const started = performance.now();
    // Read once: Next tracks every access to a route's request headers (its dynamic-usage check).
    const headers = req.headers;
    const cookie = headers.get("cookie");
    const requestId = requestIdOf(headers);
    const db = getDb();
    let viewer: Viewer | null = null;
    let response: Response;
    try {
      const { token, fromCookie } = tokenFromHeaders({ authorization: headers.get("authorization"), cookie });
      const params = (await route.params) ?? ({} as P);
      const found = await resolve(db, token, env().AUTH_SECRET, params);
      viewer = found?.viewer ?? null;
      if (!viewer && auth === "required") throw new UnauthorizedError();
      if (fromCookie && !SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      const ctx = { viewer: viewer as V, db, requestId, ip: clientIp(headers), locale: localeOfHeaders(headers, cookie) };
      response = await handler({ req, ctx, params, extra: found?.extra as X });
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

/** withAuth for GET account/me: the session check reads the viewer's own account row too. */
export function withOwnAccount<P = Record<string, never>>(handler: (args: Args<P, Viewer> & { own: AccountDtoRow }) => Promise<Response>): Route<P> {
  const resolve: Resolver<P, AccountDtoRow> = async (db, token, secret) => {
    const found = await resolveViewerAccount(db, token, secret);
    return found && { viewer: found.viewer, extra: found.account };
  };
  return wrap<P, Viewer, AccountDtoRow>((args) => handler({ ...args, own: args.extra }), "required", resolve);
}

/**
 * withAuth for GET account/{id}: the session check reads that account as the viewer sees it too
 * (`seen.row` null when there is none). A malformed id reads nothing; the handler answers 404.
 */
export function withAccountById(
  handler: (args: Args<{ id: string }, Viewer> & { seen: { row: SeenAccount | null } | undefined }) => Promise<Response>,
): Route<{ id: string }> {
  const resolve: Resolver<{ id: string }, { row: SeenAccount | null } | undefined> = async (db, token, secret, params) => {
    const id = accountIdParams.safeParse(params);
    if (!id.success) return plainViewer(db, token, secret, params) as Promise<{ viewer: Viewer; extra: undefined } | null>;
    const found = await resolveViewerWithAccount(db, token, secret, id.data.id);
    return found && { viewer: found.viewer, extra: { row: found.account } };
  };
  return wrap<{ id: string }, Viewer, { row: SeenAccount | null } | undefined>((args) => handler({ ...args, seen: args.extra }), "required", resolve);
}

/** A route handler open to everyone; ctx.viewer is the signed-in account or null. */
export function withOptionalAuth<P = Record<string, never>>(
  handler: (args: Args<P, Viewer | null>) => Promise<Response>,
): Route<P> {
  return wrap<P, Viewer | null>(handler, "optional");
}
