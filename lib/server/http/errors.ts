import "server-only";
import { ZodError } from "zod";

/** Stable error codes of the API and the HTTP status each maps to. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorIssue = { path: string; message: string };

/** An error a service throws on purpose: its message is safe to show to the user. */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ErrorIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export class BadRequestError extends ServiceError {
  constructor(message = "Bad request", issues?: ErrorIssue[]) {
    super("bad_request", message, issues);
  }
}
export class ValidationError extends ServiceError {
  constructor(message: string, issues?: ErrorIssue[]) {
    super("validation_failed", message, issues);
  }
}
export class UnauthorizedError extends ServiceError {
  constructor(message = "Authentication required") {
    super("unauthorized", message);
  }
}
export class ForbiddenError extends ServiceError {
  constructor(message = "Forbidden") {
    super("forbidden", message);
  }
}
export class NotFoundError extends ServiceError {
  constructor(message = "Not found") {
    super("not_found", message);
  }
}
export class ConflictError extends ServiceError {
  constructor(message: string) {
    super("conflict", message);
  }
}
export class RateLimitedError extends ServiceError {
  constructor(retryAfterSeconds: number, message = "Too many requests, try again later") {
    super("rate_limited", message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export type ErrorBody = {
  error: { code: ErrorCode; message: string; issues?: ErrorIssue[] };
  requestId: string;
};

export function zodIssues(error: ZodError): ErrorIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/**
 * The database cannot be reached right now: its server is restarting or shutting down (SQLSTATE class 08,
 * 57P01–57P03), it has no free connection (53300), or the socket failed (the drivers' and Node's codes).
 * Such a request is answered 503 with Retry-After, never 500: nothing about it was wrong (issue 30).
 */
const DB_UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const DB_UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);
/** Seconds a client is asked to wait before it tries again while the database is away. */
export const DB_UNAVAILABLE_RETRY_AFTER = 5;

export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === "object" && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (DB_UNAVAILABLE_SQLSTATES.has(code) || DB_UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    // node-postgres (the rate limits' and the queue's driver) says so in words only.
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && /^(Connection terminated|timeout exceeded when trying to connect)/.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function isPgError(e: unknown): e is { code: string; constraint_name?: string } {
  return typeof e === "object" && e !== null && "code" in e && typeof (e as { code: unknown }).code === "string";
}

/**
 * Turns anything thrown into the status and envelope the client sees. Unknown errors become a
 * generic 500; the caller logs the original with the request id.
 */
export function toErrorBody(err: unknown, requestId: string): { status: number; body: ErrorBody; headers?: Record<string, string>; unexpected: boolean } {
  const wrap = (code: ErrorCode, message: string, issues?: ErrorIssue[], headers?: Record<string, string>) => ({
    status: ERROR_STATUS[code],
    body: { error: { code, message, ...(issues?.length ? { issues } : {}) }, requestId },
    headers,
    unexpected: code === "internal_error",
  });
  if (err instanceof ServiceError) return wrap(err.code, err.message, err.issues, err.headers);
  if (err instanceof ZodError) return wrap("validation_failed", "Invalid input", zodIssues(err));
  const cause = (err as { cause?: unknown })?.cause;
  const pg = isPgError(err) ? err : isPgError(cause) ? cause : undefined;
  if (pg?.code === "23505") return wrap("conflict", "Already exists");
  if (pg?.code === "23503") return wrap("not_found", "Referenced item not found");
  // Bad values Postgres itself refuses: text, numbers and dates it cannot read, and (a last line behind
  // the text schemas of lib/validation, docs/adr/0111) a NUL or an unpaired surrogate it cannot store.
  if (pg && ["22P02", "22003", "22007", "22008", "22021", "22P05"].includes(pg.code)) {
    return wrap("bad_request", "Invalid value");
  }
  if (isDatabaseUnavailable(err)) return wrap("unavailable", "errors.unavailable", undefined, { "Retry-After": String(DB_UNAVAILABLE_RETRY_AFTER) });
  return wrap("internal_error", "Internal server error");
}
