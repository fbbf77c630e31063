// CPU time per request, by who spent it (docs/adr/0104): the app (every process under the one the bench
// started: the cluster primary, the web workers, the realtime sidecar), Postgres (every process named
// `postgres` on this machine: the backends serving the app, and autovacuum or checkpoints if they run),
// and this process (autocannon, the load generator, which shares the same cores). A ratio to the trivial
// handler says how much slower a request is; these say where its extra time goes.
// Read from /proc (Linux); elsewhere the sampler is null and the report leaves the columns out.
import { readdirSync, readFileSync } from "node:fs";

export type CpuSample = { app: number; postgres: number; bench: number };

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICK_MS = 10;

type Proc = { ppid: number; comm: string; ms: number };

function processes(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid … utime stime …": comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    out.set(Number(name), { ppid: Number(fields[1]), comm: stat.slice(stat.indexOf("(") + 1, close), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
  }
  return out;
}

function descendsFrom(pid: number, root: number, procs: Map<number, Proc>): boolean {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    if (p === root) return true;
    const next = procs.get(p)?.ppid;
    if (next === undefined) return false;
    p = next;
  }
  return false;
}

/** A function returning the CPU milliseconds spent so far by the app under `appPid`, Postgres and this process. */
export function cpuSampler(appPid: number | undefined): (() => CpuSample) | null {
  if (process.platform !== "linux" || !appPid) return null;
  try {
    readdirSync("/proc");
  } catch {
    return null;
  }
  return () => {
    const procs = processes();
    let app = 0;
    let postgres = 0;
    for (const [pid, p] of procs) {
      if (p.comm === "postgres") postgres += p.ms;
      else if (descendsFrom(pid, appPid, procs)) app += p.ms;
    }
    const own = process.cpuUsage();
    return { app, postgres, bench: (own.user + own.system) / 1000 };
  };
}

/** CPU milliseconds per request between two samples. */
export function perRequest(before: CpuSample, after: CpuSample, requests: number): CpuSample {
  const per = (k: keyof CpuSample) => Math.round(((after[k] - before[k]) / Math.max(1, requests)) * 1000) / 1000;
  return { app: per("app"), postgres: per("postgres"), bench: per("bench") };
}
