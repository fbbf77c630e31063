// The process's logger (JSON lines on stdout), without "server-only" so that the custom HTTP server
// (lib/server/http/app-server.ts, run outside the react-server condition) logs through it too.
// Server code imports it as lib/server/log.ts.
import pino from "pino";

/**
 * Properties of a database error that can hold a request's values: Drizzle's `params`, postgres.js's
 * `parameters` and `args`, Postgres's `detail` ("Key (email)=(…) already exists") and `where`
 * ("unnamed portal parameter $1 = '…'"). A log keeps the SQL text (placeholders only) and the error
 * code; never what a person wrote (docs/adr/0111).
 */
const VALUE_KEYS = new Set(["params", "parameters", "args", "detail", "where", "hint", "internal_query"]);

type Serialized = Record<string, unknown>;

/**
 * The message without a request's values: Drizzle's "Failed query: <sql>\nparams: <values>" keeps its
 * SQL; a Postgres data exception (SQLSTATE class 22: "invalid input syntax for type integer: "…"")
 * quotes the value it refused, so only its code is kept.
 */
function withoutValues(err: Error & { query?: unknown; params?: unknown; code?: unknown; severity?: unknown }): { message: string; stack?: string } {
  let message = err.message;
  if (typeof err.query === "string" && "params" in err) message = `Failed query: ${err.query}`;
  else if (typeof err.code === "string" && err.code.startsWith("22") && "severity" in err) message = `data exception ${err.code} (value left out of the log)`;
  return { message, stack: message === err.message ? err.stack : err.stack?.replace(err.message, message) };
}

/** pino's `err` serializer, minus every value a query carried, down the `cause` chain. */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  const { message, stack } = withoutValues(err);
  const out: Serialized = { type: err.constructor?.name ?? err.name, message, stack };
  for (const [key, value] of Object.entries(err)) {
    if (key === "cause" || key === "message" || key === "stack" || VALUE_KEYS.has(key)) continue;
    out[key] = value;
  }
  if (err.cause !== undefined && depth < 5) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

const globalForLog = globalThis as unknown as { __krugLog?: pino.Logger };

/** Bytes of log lines gathered before they are written; LOG_FLUSH_MS is the longest a line waits. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 1000;

/**
 * Stdout, written in batches of up to 4 KB and at least every second: a write per line was a system
 * call per request (~22 µs of a signed-in request's ~1 ms here, docs/adr/0146). pino flushes what is
 * gathered synchronously when the process exits (process.exit, an uncaught exception, a signal handler
 * that exits); only a kill -9 can lose the last second's lines. LOG_SYNC=1 writes every line at once.
 */
function destination(): pino.DestinationStream {
  if (process.env.LOG_SYNC === "1") return pino.destination({ dest: 1, sync: true });
  const out = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  setInterval(() => {
    try {
      out.flush();
    } catch {
      // Nothing gathered or a write in flight: the next tick takes it.
    }
  }, LOG_FLUSH_MS).unref();
  return out;
}

/** JSON lines on stdout; one logger per process. */
export const log: pino.Logger =
  globalForLog.__krugLog ??
  (globalForLog.__krugLog = pino(
    {
      level: process.env.LOG_LEVEL || "info",
      base: { service: process.env.KRUG_SERVICE || "app" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ["password", "*.password", "token", "*.token"], remove: true },
      serializers: { err: serializeError },
    },
    destination(),
  ));
