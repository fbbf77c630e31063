// Chat and realtime benchmark (issue 11, issue 8 item 4): message send → delivered on the recipient's
// socket, and a bare outbox event → delivered, p50/p99 at a fixed offered rate (BENCH_CHAT_RATES,
// default 100,500 per second, BENCH_CHAT_SECONDS each), and the sidecar's RSS with BENCH_CHAT_SOCKETS
// (default 1000,10000) idle authenticated sockets.
// The sidecar runs as its own process exactly as `npm start` runs it; messages go through the send
// verb (the POST's service, without Next's HTTP layer), spread over BENCH_CHAT_PAIRS pairs.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { WebSocket } from "ws";
import { getDb } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/http/client-address";
import { freePort } from "@/db/embedded";
import { signAccessToken } from "@/lib/server/auth/tokens";
import type { Viewer } from "@/lib/server/auth/viewer";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import type { ServiceCtx } from "@/lib/server/services/context";
import { REALTIME_PATH } from "@/lib/validation/realtime";

/** The generic event of the event → delivered measurement (clients ignore types they do not know). */
const BENCH_EVENT = "BENCH_EVENT";

/** Idle sockets per account and per client address, within the sidecar's caps (20 and 100). */
const SOCKETS_PER_IDLE_ACCOUNT = 10;

export type Person = { id: number; token: string; ctx: ServiceCtx };
export type ChatTiming = { name: string; p50: number; p99: number; max: number; runs: number; note?: string };

const list = (v: string | undefined, d: number[]) => (v ? v.split(",").map(Number) : d);

export async function people(n: number, secret: string): Promise<Person[]> {
  const db = getDb();
  const tag = randomUUID().slice(0, 8);
  const rows = await db.execute<{ id: string }>(sql`
    insert into accounts (email, password_hash, first_name, last_name)
    select 'bench-chat-' || ${tag} || '-' || g || '@example.com', 'x', 'Bench', 'Chat' || g from generate_series(1, ${n}) g
    returning id`);
  const out: Person[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    const [s] = await db.execute<{ id: string }>(sql`
      insert into sessions (account_id, expires_at) values (${id}, now() + interval '1 day') returning id`);
    const viewer: Viewer = { id, sessionId: s.id, role: "USER", isDeleted: false, language: "ru" };
    out.push({ id, token: await signAccessToken({ accountId: id, sessionId: s.id }, secret), ctx: { viewer, db, requestId: "bench" } });
  }
  return out;
}

export function startSidecar(port: number): Promise<{ pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "realtime/main.ts"], {
    env: { ...process.env, REALTIME_PORT: String(port), PORT: String(port + 1), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${REALTIME_PATH}`);
      ws.on("unexpected-response", () => {
        ws.terminate();
        resolve({ pid: child.pid!, stop }); // 401: it is up
      });
      ws.on("error", () => (Date.now() > deadline ? reject(new Error("sidecar did not start")) : setTimeout(poll, 200)));
    };
    poll();
  });
}

/** A frame as the bench reads it: outbox events carry their position as `id`. */
export type BenchFrame = { type: string; id?: number; data?: { clientId?: string } };

/** An authenticated socket with frames=all, resolved on READY; `lastEventId` resumes after that event (issue 8). */
export function openSocket(
  port: number,
  token: string,
  onFrame?: (f: BenchFrame) => void,
  clientAddress?: string,
  lastEventId?: number,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    // The app server names the browser's address to the sidecar (ADR 40); idle crowds come from many.
    const address = clientAddress ? { [CLIENT_ADDRESS_HEADER]: clientAddress } : {};
    const resume = lastEventId !== undefined ? `&lastEventId=${lastEventId}` : "";
    const ws = new WebSocket(`ws://127.0.0.1:${port}${REALTIME_PATH}?frames=all${resume}`, { headers: { authorization: `Bearer ${token}`, ...address } });
    ws.once("error", reject);
    ws.on("message", (raw) => {
      const f = JSON.parse(raw.toString());
      if (f.type === "READY") resolve(ws);
      onFrame?.(f);
    });
  });
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return Math.round(Number(line.replace(/\D+/g, "")) / 1024);
};

export function stats(name: string, times: number[], note?: string): ChatTiming {
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] * 10) / 10;
  return { name, p50: at(50), p99: at(99), max: at(100), runs: times.length, note };
}

export async function benchChat(): Promise<ChatTiming[]> {
  const secret = process.env.AUTH_SECRET!;
  const rates = list(process.env.BENCH_CHAT_RATES, [100, 500]);
  const seconds = Number(process.env.BENCH_CHAT_SECONDS ?? 10);
  const pairs = Number(process.env.BENCH_CHAT_PAIRS ?? 50);
  const socketCounts = list(process.env.BENCH_CHAT_SOCKETS, [1000, 10000]);
  const port = await freePort();
  const sidecar = await startSidecar(port);
  const out: ChatTiming[] = [];
  try {
    const crowd = await people(pairs * 2, secret);
    const dialogs: { from: Person; to: Person; dialogId: number }[] = [];
    for (let i = 0; i < pairs; i++) {
      const [from, to] = [crowd[2 * i], crowd[2 * i + 1]];
      dialogs.push({ from, to, dialogId: (await createDialog({ ctx: from.ctx, input: { recipientId: to.id } })).dialog.id });
    }
    const pending = new Map<string, number>();
    const latencies: number[] = [];
    await Promise.all(
      dialogs.map((d) =>
        openSocket(port, d.to.token, (f) => {
          const started = (f.type === "MESSAGE" || f.type === BENCH_EVENT) && f.data?.clientId ? pending.get(f.data.clientId) : undefined;
          if (started !== undefined) {
            latencies.push(performance.now() - started);
            pending.delete(f.data!.clientId!);
          }
        }),
      ),
    );
    /** Open loop: item i is due at t0 + i / rate whatever the earlier ones are doing. */
    const offered = async (label: string, rate: number, send: (d: (typeof dialogs)[number], i: number, clientId: string) => Promise<unknown>) => {
      latencies.length = 0;
      const total = rate * seconds;
      const sendTimes: number[] = [];
      let failed = 0;
      const t0 = performance.now();
      const inflight: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const d = dialogs[i % dialogs.length];
        const clientId = randomUUID();
        const started = performance.now();
        pending.set(clientId, started);
        inflight.push(
          send(d, i, clientId).then(
            () => void sendTimes.push(performance.now() - started),
            () => void (failed += 1),
          ),
        );
      }
      await Promise.all(inflight);
      const drainDeadline = Date.now() + 30_000;
      while (latencies.length + failed < total && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 50));
      const achieved = Math.round(total / ((performance.now() - t0) / 1000));
      out.push(stats(`${label}→delivered @${rate}/s`, [...latencies], `achieved ${achieved}/s, lost ${total - latencies.length - failed}, failed ${failed}`));
      out.push(stats(`${label} (commit) @${rate}/s`, sendTimes));
    };
    // Warm-up, not measured: the pool opens its connections and prepares its statements, and the JIT
    // compiles the send path, as in a server that has been up for a while. One message per dialog,
    // then two seconds at the lowest rate.
    await Promise.all(dialogs.map((d, i) => sendMessage({ ctx: d.from.ctx, input: { dialogId: d.dialogId, messageText: `warm-up ${i}` } })));
    {
      const rate = Math.min(...rates);
      const t0 = performance.now();
      const warming: Promise<unknown>[] = [];
      for (let i = 0; i < rate * 2; i++) {
        const wait = t0 + (i * 1000) / rate - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const d = dialogs[i % dialogs.length];
        warming.push(sendMessage({ ctx: d.from.ctx, input: { dialogId: d.dialogId, messageText: `warm-up ${i}` } }));
      }
      await Promise.all(warming);
    }
    // Chat (issue 11): the message POST's service, with its MESSAGE notification.
    for (const rate of rates) {
      await offered("send", rate, (d, i, clientId) =>
        sendMessage({ ctx: d.from.ctx, input: { dialogId: d.dialogId, messageText: `bench ${i}`, clientId } }),
      );
    }
    // Any event (issue 8 item 4): one outbox event per transaction, nothing else written; what the
    // outbox, its sequencer and the sidecar's fan-out cost on their own.
    const db = getDb();
    for (const rate of rates) {
      await offered("event", rate, (d, _i, clientId) =>
        db.transaction((tx) => appendEvent(tx, { type: BENCH_EVENT, recipients: [d.to.id], data: { clientId } })),
      );
    }
    // Idle sockets: the sidecar's per-socket cost is what counts. Within its caps (ADR 40): at most
    // SOCKETS_PER_IDLE_ACCOUNT per account and per client address.
    const idle: WebSocket[] = [];
    const idlers = await people(Math.ceil(Math.max(...socketCounts) / SOCKETS_PER_IDLE_ACCOUNT), secret);
    const baseline = rssMb(sidecar.pid);
    out.push({ name: `sidecar RSS with ${pairs} sockets`, p50: baseline, p99: baseline, max: baseline, runs: 1, note: "MB" });
    for (const n of socketCounts) {
      while (idle.length < n) {
        const batch = Math.min(200, n - idle.length);
        idle.push(
          ...(await Promise.all(
            Array.from({ length: batch }, (_, k) => {
              const who = Math.floor((idle.length + k) / SOCKETS_PER_IDLE_ACCOUNT);
              return openSocket(port, idlers[who].token, undefined, `10.${(who >> 16) & 255}.${(who >> 8) & 255}.${who & 255}`);
            }),
          )),
        );
      }
      await new Promise((r) => setTimeout(r, 2_000));
      const mb = rssMb(sidecar.pid);
      out.push({ name: `sidecar RSS with ${n} idle sockets`, p50: mb, p99: mb, max: mb, runs: 1, note: "MB" });
    }
    for (const ws of idle) ws.terminate();
  } finally {
    await sidecar.stop();
  }
  return out;
}

export function printChat(timings: ChatTiming[]): void {
  const width = Math.max(...timings.map((t) => t.name.length));
  console.log(`\nchat and realtime  (ms unless noted)`);
  console.log(`${"measure".padEnd(width)}  ${"p50".padStart(8)}  ${"p99".padStart(8)}  ${"max".padStart(8)}  ${"n".padStart(6)}  note`);
  for (const t of timings) {
    console.log(
      `${t.name.padEnd(width)}  ${t.p50.toFixed(1).padStart(8)}  ${t.p99.toFixed(1).padStart(8)}  ${t.max.toFixed(1).padStart(8)}  ${String(t.runs).padStart(6)}  ${t.note ?? ""}`,
    );
  }
}
