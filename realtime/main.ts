// The realtime sidecar process: node --conditions=react-server --import tsx realtime/main.ts
// (react-server makes "server-only" resolve to its empty module, as it does inside Next).
// Modules load after KRUG_SERVICE is set, so every log line names this service.
process.env.KRUG_SERVICE ||= "realtime";
export {};

await import("../scripts/lib/runtime"); // the Node.js check, telemetry off (docs/adr/0160)
const { EnvError, env } = await import("@/lib/server/env");

function fail(line: string): never {
  process.stderr.write(line + "\n");
  process.exit(1);
}

let settings: ReturnType<typeof env>;
try {
  settings = env();
} catch (err) {
  if (err instanceof EnvError) fail(err.message);
  throw err;
}
if (!settings.DATABASE_URL) fail("DATABASE_URL is not set (npm start sets it for the embedded database)");

const { closeDb } = await import("@/db/client");
const { log } = await import("@/lib/server/log");
const { createRealtimeServer } = await import("./server");

const port = settings.REALTIME_PORT;
let server: Awaited<ReturnType<typeof createRealtimeServer>>;
try {
  server = await createRealtimeServer({ port, host: "127.0.0.1" });
} catch (err) {
  await closeDb().catch(() => {});
  if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") fail(`Realtime port ${port} is already in use`);
  log.fatal({ err }, "realtime failed to start");
  process.exit(1);
}

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "realtime stopping");
  // Sockets get a 2 s grace inside close(); whatever still hangs after 5 s is cut off.
  setTimeout(() => {
    log.error({ signal }, "realtime did not stop within 5 s; exiting");
    process.exit(1);
  }, 5_000).unref();
  try {
    await server.close();
    // The push dispatcher's queue connection, if it queued anything (docs/adr/0121).
    await (await import("@/lib/server/jobs/boss")).stopBoss();
    await closeDb();
    process.exit(0);
  } catch (err) {
    log.error({ err }, "realtime stop failed");
    process.exit(1);
  }
}
process.on("SIGTERM", (s) => void stop(s));
process.on("SIGINT", (s) => void stop(s));
