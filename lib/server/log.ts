import "server-only";

/** JSON lines on stdout; one logger per process (lib/server/logger.ts: database errors lose their values). */
export { log } from "./logger";
