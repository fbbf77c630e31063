// `npm run restart` (docs/adr/0149): the rolling restart of the Krug running on this machine with this
// DATA_DIR and PORT. It sends SIGHUP to that `npm start` (its pid is in DATA_DIR/krug.pid with the
// embedded database, DATA_DIR/krug.<PORT>.pid with DATABASE_URL) and follows the roll to its end:
// each web worker replaced by one on the newest build once that one serves, then the realtime sidecar.
// Exits 0 when done, 1 when the roll stopped (the running build then goes on serving).
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dataDir = path.resolve(process.env.DATA_DIR || ".data");
const port = process.env.PORT || "3000";
const TIMEOUT_MS = 15 * 60_000;

function fail(line: string): never {
  console.error(`[krug] ${line}`);
  process.exit(1);
}

function findPid(): number {
  for (const name of [`krug.${port}.pid`, "krug.pid"]) {
    const file = path.join(dataDir, name);
    if (!existsSync(file)) continue;
    const pid = Number(readFileSync(file, "utf8"));
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      /* a stale file */
    }
  }
  return fail(`no running Krug found for DATA_DIR ${dataDir} and PORT ${port} (start it with npm start)`);
}

type Status = { state: "rolling" | "done" | "failed"; startedAt: string; distDir?: string; buildId?: string; note?: string };

function readStatus(file: string): Status | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Status;
  } catch {
    return null;
  }
}

async function main() {
  const pid = findPid();
  const file = path.join(dataDir, `rolling-restart.${port}.json`);
  const sentAt = Date.now();
  process.kill(pid, "SIGHUP");
  console.log(`[krug] rolling restart asked of Krug ${pid}`);
  let said = "";
  while (Date.now() - sentAt < TIMEOUT_MS) {
    const s = readStatus(file);
    if (s && Date.parse(s.startedAt) >= sentAt - 1000) {
      const line = `${s.state}: build ${s.buildId ?? "?"} in ${s.distDir ?? "?"}${s.note ? ` — ${s.note}` : ""}`;
      if (line !== said) console.log(`[krug] ${line}`);
      said = line;
      if (s.state === "done") return;
      if (s.state === "failed") process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  fail("the rolling restart did not finish within 15 minutes; see the log of npm start");
}

void main();
