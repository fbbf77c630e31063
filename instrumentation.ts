// Runs once when a Next.js server starts: the recurring jobs (lib/server/jobs) start with it.
export async function register() {
  // Only the Node.js server runs jobs (never the edge runtime), and only with a database to run them on.
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  // `next build` loads this file too (prerendering); jobs belong to running servers only.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Every web worker keeps its own cache of verified sessions, kept right through LISTEN (docs/adr/0135).
  const { startSessionCache } = await import("./lib/server/auth/session-cache");
  void startSessionCache();
  // Of several web workers on one machine (scripts/next-server.ts), the first runs them; pg-boss would
  // share the work out among all, but each would poll the database for nothing.
  const worker = process.env.KRUG_WEB_WORKER;
  if (worker !== undefined && worker !== "0") return;
  const { startJobs } = await import("./lib/server/jobs/start-jobs");
  const { log } = await import("./lib/server/log");
  // A jobs failure must not keep the site down: log it; the next server start tries again.
  await startJobs().catch((err: unknown) => log.error({ err }, "jobs: could not start"));
}
