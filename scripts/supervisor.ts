// The restart logic of `npm start` (docs/adr/0002, amended): a child that crashes is started again
// after a backoff and the crash is logged; only repeated crashes in a short window give up. Kept apart
// from scripts/start.ts so the burst-with-kill test runs the very same code around the real sidecar.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

export type RestartPolicyOptions = {
  /** First delay before a restart; it doubles with each crash in a row. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** This many crashes within `windowMs` and the child is given up on. */
  maxCrashes?: number;
  windowMs?: number;
  /** A child that ran this long counts as healthy again: the next crash starts at the first delay. */
  stableAfterMs?: number;
};

/** Pure bookkeeping of one child's crashes: when to restart, or whether to give up. */
export class RestartPolicy {
  private crashes: number[] = [];
  private streak = 0;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxCrashes: number;
  readonly windowMs: number;
  readonly stableAfterMs: number;

  constructor(o: RestartPolicyOptions = {}) {
    this.initialDelayMs = o.initialDelayMs ?? 250;
    this.maxDelayMs = o.maxDelayMs ?? 8_000;
    this.maxCrashes = o.maxCrashes ?? 5;
    this.windowMs = o.windowMs ?? 60_000;
    this.stableAfterMs = o.stableAfterMs ?? 30_000;
  }

  /** Records a crash of a child that had run `uptimeMs`; answers the delay before restarting, or null to give up. */
  onCrash(now: number, uptimeMs: number): number | null {
    if (uptimeMs >= this.stableAfterMs) this.streak = 0;
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    if (this.crashes.length >= this.maxCrashes) return null;
    const delay = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** this.streak);
    this.streak += 1;
    return delay;
  }
}

export type SupervisedChild = {
  readonly name: string;
  /** The running process (a new one after each restart), or null while waiting to restart. */
  readonly current: ChildProcess | null;
  readonly restarts: number;
};

type Log = (line: string) => void;

/**
 * Runs children and restarts the ones that exit on their own. `stopAll` (SIGTERM to each process
 * group, SIGKILL after the grace) ends restarts first. `onGiveUp` is called once when a child crashed
 * too often; the caller then stops the whole unit.
 */
type Entry = SupervisedChild & {
  current: ChildProcess | null;
  restarts: number;
  timer?: NodeJS.Timeout;
  options: SpawnOptions;
  run: () => void;
  /** The process a planned restart stops: its exit starts the next one at once and is no crash. */
  replacing?: ChildProcess;
};

export class Supervisor {
  private readonly children: Entry[] = [];
  private stopping = false;

  constructor(
    private readonly log: Log,
    private readonly onGiveUp: (name: string, reason: string) => void,
    private readonly policy: RestartPolicyOptions = {},
  ) {}

  get all(): readonly SupervisedChild[] {
    return this.children;
  }

  /** Processes to signal: every child that is running now. */
  running(): ChildProcess[] {
    return this.children.flatMap((c) => (c.current ? [c.current] : []));
  }

  start(name: string, command: string, args: string[], options: SpawnOptions): SupervisedChild {
    const policy = new RestartPolicy(this.policy);
    const entry: Entry = { name, current: null, restarts: 0, options, run: () => run() };
    this.children.push(entry);
    const run = () => {
      entry.timer = undefined;
      if (this.stopping) return;
      const startedAt = Date.now();
      const child = spawn(command, args, { detached: true, ...entry.options });
      entry.current = child;
      child.on("exit", (code, signal) => {
        if (entry.current === child) entry.current = null;
        if (this.stopping) return;
        if (entry.replacing === child) {
          entry.replacing = undefined;
          run();
          return;
        }
        const how = signal ?? `code ${code}`;
        const delay = policy.onCrash(Date.now(), Date.now() - startedAt);
        if (delay === null) {
          this.log(`${name} exited unexpectedly (${how}); ${policy.maxCrashes} crashes within ${policy.windowMs / 1000} s, giving up`);
          this.onGiveUp(name, `${name} keeps crashing`);
          return;
        }
        entry.restarts += 1;
        this.log(`${name} exited unexpectedly (${how}); restart #${entry.restarts} in ${delay} ms`);
        entry.timer = setTimeout(run, delay);
      });
    };
    run();
    return entry;
  }

  /** The options of the child's next start (a restart of any kind); the running process keeps its own. */
  setOptions(name: string, options: SpawnOptions) {
    const entry = this.children.find((c) => c.name === name);
    if (entry) entry.options = options;
  }

  /**
   * A planned restart (docs/adr/0149): SIGTERM to the child's process group (SIGKILL after `graceMs`),
   * then a new one at once, with `options` when given. Not a crash: no backoff, nothing counted. Resolves
   * with the new process once spawned.
   */
  async restart(name: string, graceMs: number, options?: SpawnOptions): Promise<ChildProcess | null> {
    const entry = this.children.find((c) => c.name === name);
    if (!entry || this.stopping) return null;
    if (options) entry.options = options;
    const old = entry.current;
    if (!old) {
      // Waiting out a crash's backoff: start now instead.
      if (entry.timer) clearTimeout(entry.timer);
      entry.run();
      return entry.current;
    }
    entry.replacing = old;
    signalGroup(old, "SIGTERM");
    if (!(await waitForExit(old, graceMs))) {
      signalGroup(old, "SIGKILL");
      await waitForExit(old, graceMs);
    }
    return entry.current;
  }

  /** Stops restarting and ends every child: SIGTERM to its process group, SIGKILL after `graceMs`. */
  async stopAll(graceMs: number): Promise<void> {
    this.stopping = true;
    for (const c of this.children) if (c.timer) clearTimeout(c.timer);
    const procs = this.running();
    for (const p of procs) signalGroup(p, "SIGTERM");
    const done = await Promise.all(procs.map((p) => waitForExit(p, graceMs)));
    procs.forEach((p, i) => {
      if (!done[i]) signalGroup(p, "SIGKILL");
    });
  }
}

export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal); // the whole group: Next's own workers included
  } catch {
    /* already gone */
  }
}
