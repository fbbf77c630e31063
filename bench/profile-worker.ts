// `node --import tsx bench/profile-worker.ts <name>=<path> …`: a V8 CPU profile of ONE web worker under
// one request at a time (docs/adr/0153). For each named path: the production server (scripts/next-server.ts,
// WEB_CONCURRENCY=1, `node --cpu-prof`) on DATABASE_URL with the build in NEXT_DIST_DIR, signed in as
// PROFILE_EMAIL (the bench's median account by default) when the path is not /api/health; autocannon at
// PROFILE_CONNECTIONS (8) for PROFILE_WARMUP seconds (3), a pause, PROFILE_SECONDS (15) measured, a pause;
// then the worker stops and writes its profile to PROFILE_DIR/<name>/. The report (bench/cpu-profile.ts)
// takes the busy stretch of the measured run (--from-ms/--to-ms, printed here) and divides by its requests;
// the server's and Postgres's CPU per request over that stretch come from /proc (PROFILE_CPU_PROF=0: those
// alone, without the profiler). A profile's time is wall time while the thread runs JavaScript: on a busy
// host preemption inflates it, so compare two builds' profiles taken in the same minutes, by difference.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { cpuSampler } from "./cpu";
import { signIn } from "./http";

const port = Number(process.env.PROFILE_PORT ?? 3529);
const baseUrl = `http://127.0.0.1:${port}`;
const outDir = path.resolve(process.env.PROFILE_DIR ?? "/tmp/krug/profiles");
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 8);
const warmup = Number(process.env.PROFILE_WARMUP ?? 3);
const seconds = Number(process.env.PROFILE_SECONDS ?? 15);
const email = process.env.PROFILE_EMAIL ?? "bench-18573@bench.invalid";
/** PROFILE_CPU_PROF=0: no profile, only the server's CPU per request (without the profiler's own cost). */
const withProfile = process.env.PROFILE_CPU_PROF !== "0";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitReady(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await sleep(200);
  }
  throw new Error("the server did not answer /api/health");
}

function load(url: string, headers: Record<string, string>, duration: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections, duration, headers }, (err: unknown, result: autocannon.Result) => (err ? reject(err) : resolve(result)));
  });
}

async function profile(name: string, urlPath: string) {
  const dir = path.join(outDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const flags = withProfile ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "scripts/next-server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      WEB_CONCURRENCY: "1",
      PORT: String(port),
      REALTIME_PORT: String(port + 1),
      PUBLIC_URL: baseUrl,
      DATA_DIR: process.env.DATA_DIR ?? path.join(outDir, "data"),
      AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-secret-of-at-least-32-characters-0123456789",
      RATE_LIMIT_LOGIN_IP: "1000000/5m",
      RATE_LIMIT_LOGIN_ACCOUNT: "1000000/5m",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const t0 = Date.now();
  try {
    await waitReady(120_000);
    const headers: Record<string, string> = urlPath === "/api/health" ? {} : { cookie: await signIn(baseUrl, email) };
    await load(`${baseUrl}${urlPath}`, headers, warmup);
    await sleep(2_000);
    const from = Date.now() - t0;
    // CPU of the server (its primary and worker, from /proc) and of Postgres over the measured run (bench/cpu.ts).
    const sampler = cpuSampler(child.pid);
    const before = sampler?.();
    const r = await load(`${baseUrl}${urlPath}`, headers, seconds);
    const after = sampler?.();
    const to = Date.now() - t0;
    await sleep(2_000);
    const requests = r.requests.total;
    const cpu = before && after ? `; CPU ms/req: server ${((after.app - before.app) / requests).toFixed(3)}, Postgres ${((after.postgres - before.postgres) / requests).toFixed(3)}` : "";
    console.log(`${name}: ${requests} requests (${Math.round(r.requests.average)} req/s, non-2xx ${r.non2xx}) from ${from} to ${to} ms after the start${cpu}`);
    return { requests, from, to };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    console.log(`${name}: profiles in ${dir}: ${readdirSync(dir).join(", ")}`);
  }
}

for (const arg of process.argv.slice(2)) {
  const eq = arg.indexOf("=");
  await profile(arg.slice(0, eq), arg.slice(eq + 1));
}
