// Requests the custom HTTP server answers itself, before Next (issue 24 item 9, docs/adr/0111): a method
// no route serves (TRACE …) and a path with a malformed % escape. Next answered both with a plain-text
// 500 that nothing logged. No "server-only": app-server.ts runs outside the react-server condition.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { localeOf, LOCALE_COOKIE, type Locale } from "@/lib/i18n/config";
import { log } from "@/lib/server/logger";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { redactPath } from "./redact-path";

/** The methods route handlers and pages serve; anything else is answered 405 here. */
export const ROUTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const routed = new Set<string>(ROUTED_METHODS);

type Refusal = { status: 400 | 405; code: "bad_request" | "method_not_allowed"; message: Record<Locale, string> };

const METHOD_NOT_ALLOWED: Refusal = {
  status: 405,
  code: "method_not_allowed",
  message: { ru: ru.common.apiMethodNotAllowed, en: en.common.apiMethodNotAllowed },
};
const BAD_PATH: Refusal = { status: 400, code: "bad_request", message: { ru: ru.common.apiBadPath, en: en.common.apiBadPath } };

/** Why this request never reaches Next, or null when it may. */
export function refusalOf(req: Pick<IncomingMessage, "method" | "url">): Refusal | null {
  if (!routed.has(req.method ?? "")) return METHOD_NOT_ALLOWED;
  try {
    decodeURIComponent(pathOf(req.url));
  } catch {
    return BAD_PATH;
  }
  return null;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  return q === -1 ? raw : raw.slice(0, q);
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Answers a refused request: under /api the standard JSON envelope (lib/server/http/errors.ts) in the
 * request's language, elsewhere the status's plain text. 405 names the methods that are served. Logged
 * like every answered request, with the path redacted and no query.
 */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const given = req.headers["x-request-id"];
  const requestId = typeof given === "string" && /^[\w.-]{8,128}$/.test(given) ? given : randomUUID();
  const path = pathOf(req.url);
  const api = path === "/api" || path.startsWith("/api/");
  const accept = req.headers["accept-language"];
  const message = refusal.message[localeOf(cookie(req.headers.cookie, LOCALE_COOKIE), Array.isArray(accept) ? accept[0] : accept)];
  const body = api ? JSON.stringify({ error: { code: refusal.code, message }, requestId }) : message;
  res.statusCode = refusal.status;
  res.setHeader("content-type", api ? "application/json" : "text/plain; charset=utf-8");
  res.setHeader("content-length", Buffer.byteLength(body));
  res.setHeader("cache-control", "no-store");
  res.setHeader("x-request-id", requestId);
  if (refusal.status === 405) res.setHeader("allow", ROUTED_METHODS.join(", "));
  res.end(req.method === "HEAD" ? undefined : body);
  log.info({ requestId, method: req.method, path: redactPath(path), status: refusal.status }, "request refused before routing");
}
