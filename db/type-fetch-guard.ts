/**
 * postgres.js (3.4.9) starts every new connection with a catalog query for the array types and drops that
 * query's promise (porsager/postgres#1192, #1205, #1223, open upstream). When the connection dies while the
 * query waits — a database restart, a proxy cut, a refused reconnect — its error surfaces as an unhandled
 * rejection that nothing in the app can catch, and Node ends the process for it. The query that asked for a
 * connection fails or succeeds on its own, so this one rejection carries nothing to act on: it is logged and
 * the process goes on. Any other unhandled rejection keeps Node's behaviour.
 */
const TYPE_FETCH = "select b.oid, b.typarray";

/** True for the dropped array-type fetch of postgres.js, and nothing else. */
export function isDroppedTypeFetch(reason: unknown): boolean {
  if (typeof reason !== "object" || reason === null) return false;
  const query = (reason as { query?: unknown }).query;
  return typeof query === "string" && query.trimStart().startsWith(TYPE_FETCH);
}

const globalForGuard = globalThis as unknown as { __krugTypeFetchGuard?: boolean };

export function guardDroppedTypeFetch(warn: (message: string, error: unknown) => void = defaultWarn): void {
  if (globalForGuard.__krugTypeFetchGuard || typeof process === "undefined" || typeof process.on !== "function") return;
  globalForGuard.__krugTypeFetchGuard = true;
  const onRejection = (reason: unknown) => {
    if (isDroppedTypeFetch(reason)) {
      warn("postgres: a connection closed while it fetched the array types; it reconnects", reason);
      return;
    }
    // Alone, this listener would silence every other rejection: hand it back to Node's default (a crash).
    if (process.listenerCount("unhandledRejection") === 1) throw reason;
  };
  process.on("unhandledRejection", onRejection);
}

function defaultWarn(message: string, error: unknown) {
  const code = (error as { code?: unknown }).code;
  process.stderr.write(`${JSON.stringify({ level: 40, time: new Date().toISOString(), msg: message, code })}\n`);
}
