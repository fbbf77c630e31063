import "server-only";
import pino from "pino";

const globalForLog = globalThis as unknown as { __krugLog?: pino.Logger };

/** JSON lines on stdout; one logger per process. */
export const log: pino.Logger =
  globalForLog.__krugLog ??
  (globalForLog.__krugLog = pino({
    level: process.env.LOG_LEVEL || "info",
    base: { service: process.env.KRUG_SERVICE || "app" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ["password", "*.password", "token", "*.token"], remove: true },
  }));
