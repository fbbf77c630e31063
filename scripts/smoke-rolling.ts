// The rolling restart under load, for scripts/smoke-embedded.sh (docs/adr/0149): two people with open
// sockets, one chatting to the other every 1.1 s (within the message rate limit) and HTTP requests every
// 50 ms, while `npm run restart` takes the running Krug over to the current release. Then: every message
// acknowledged is in the dialog once and reached the recipient's socket once, none was refused, both
// sockets were closed by the roll and resumed from their last event id, no page or API request was
// answered 5xx (nor went unanswered; /api/ready is counted apart: it rightly says 503 while the sidecar
// restarts), and the static files of the page loaded before the roll are still served. Prints what it
// saw; exits 1 on any failure.
// Env: SMOKE_BASE (http://127.0.0.1:PORT), DATA_DIR, PORT, SMOKE_A and SMOKE_B (e-mails), SMOKE_PASSWORD.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { WebSocket } from "ws";
import { REALTIME_PATH } from "@/lib/validation/realtime-shared";

const base = process.env.SMOKE_BASE!;
const password = process.env.SMOKE_PASSWORD!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `closes`: sockets that had opened and were closed; `resumes`: READY on a socket opened with a last event id. */
type Person = { id: number; token: string; socket: WebSocket | null; lastEventId: number | null; ready: boolean; closes: number; resumes: number };

async function signIn(email: string): Promise<Person> {
  const res = await fetch(`${base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status}`);
  const token = String(((await res.json()) as { accessToken: string }).accessToken);
  const me = (await (await fetch(`${base}/api/v1/account/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: number };
  return { id: Number(me.id), token, socket: null, lastEventId: null, ready: false, closes: 0, resumes: 0 };
}

const pending = new Map<string, number>(); // clientId → when last sent
const acked = new Map<string, number>(); // clientId → message id
const delivered = new Map<number, number>(); // message id → times on the recipient's socket
const refused = new Map<number, number>(); // MESSAGE_REJECTED by status (503, the database away, is sent again)
let stopping = false;

/** A socket that reconnects 200 ms after any close and resumes from its last event id, as the browser's does. */
function connect(p: Person, onFrame: (f: { id?: number; type: string; data?: Record<string, unknown> }) => void) {
  const q = `?frames=all${p.lastEventId === null ? "" : `&lastEventId=${p.lastEventId}`}`;
  let opened = false;
  const ws = new WebSocket(`${base.replace("http", "ws")}${REALTIME_PATH}${q}`, { headers: { authorization: `Bearer ${p.token}` } });
  p.socket = ws;
  p.ready = false;
  ws.on("message", (raw) => {
    const f = JSON.parse(String(raw)) as { id?: number; type: string; lastEventId?: number; data?: Record<string, unknown> };
    if (f.type === "READY") {
      if (q) p.resumes += 1;
      p.lastEventId = f.lastEventId ?? p.lastEventId;
      p.ready = true;
      return;
    }
    if (typeof f.id === "number") p.lastEventId = f.id;
    onFrame(f);
  });
  ws.on("open", () => (opened = true));
  ws.on("error", () => {});
  ws.on("close", () => {
    if (opened) p.closes += 1;
    p.socket = null;
    p.ready = false;
    if (!stopping) setTimeout(() => connect(p, onFrame), 200);
  });
}

async function main() {
  const a = await signIn(process.env.SMOKE_A!);
  const b = await signIn(process.env.SMOKE_B!);
  // The page a browser holds from before the roll, and the static files it names.
  const page = await (await fetch(`${base}/login`)).text();
  const assets = [...new Set([...page.matchAll(/\/_next\/static\/[^"'\s)]+\.(?:js|css)/g)].map((m) => m[0]))];

  connect(a, (f) => {
    const clientId = f.data?.clientId as string | undefined;
    if (f.type === "MESSAGE" && clientId && pending.has(clientId)) {
      pending.delete(clientId);
      acked.set(clientId, Number(f.data!.id));
    }
    if (f.type === "MESSAGE_REJECTED" && clientId && pending.has(clientId)) {
      const status = Number(f.data!.status);
      refused.set(status, (refused.get(status) ?? 0) + 1);
      if (status !== 503) pending.delete(clientId);
    }
  });
  connect(b, (f) => {
    if (f.type === "MESSAGE" && Number(f.data?.recipientId) === b.id) delivered.set(Number(f.data!.id), (delivered.get(Number(f.data!.id)) ?? 0) + 1);
  });
  while (!a.ready || !b.ready) await sleep(50);
  const closesBefore = { a: a.closes, b: b.closes };

  // The chat in flight: a new message every 1.1 s; one unanswered for 5 s (or sent before a drop) again, same id.
  let sending = true;
  const chat = (async () => {
    while (sending || pending.size > 0) {
      if (sending) pending.set(randomUUID(), 0);
      const now = Date.now();
      for (const [clientId, at] of pending) {
        if (!a.socket || a.socket.readyState !== WebSocket.OPEN || !a.ready) break;
        if (at !== 0 && now - at < 5_000) continue;
        pending.set(clientId, now);
        a.socket.send(JSON.stringify({ type: "MESSAGE", data: { recipientId: b.id, messageText: `rolling ${clientId}`, clientId } }));
      }
      await sleep(1100);
    }
  })();
  // Requests all along: readiness, a cached page, an API call.
  const statuses = new Map<number, number>(); // pages and API calls
  const readiness = new Map<number, number>(); // /api/ready
  let requesting = true;
  const http = (async () => {
    const paths = ["/api/ready", "/login", "/api/v1/account/me"];
    for (let i = 0; requesting; i++) {
      // A kept-alive connection that a replaced worker closes just as the next request goes out on it fails
      // in the client, not the server: a browser sends such an idempotent request again at once (RFC 9110
      // §9.2.2), undici's fetch does not — so this client does, once. A server that does not answer fails both.
      const get = () => fetch(`${base}${paths[i % 3]}`, { headers: { authorization: `Bearer ${a.token}` } });
      const res = await get().catch(() => get()).catch(() => null);
      await res?.arrayBuffer().catch(() => null);
      const status = res?.status ?? 0;
      const counts = i % 3 === 0 ? readiness : statuses;
      counts.set(status, (counts.get(status) ?? 0) + 1);
      await sleep(50);
    }
  })();

  await sleep(1500);
  const t0 = Date.now();
  const restart = spawn(process.execPath, ["--import", "tsx", "scripts/restart.ts"], { stdio: "inherit", env: process.env });
  const code = await new Promise<number>((resolve) => restart.on("exit", (c) => resolve(c ?? 1)));
  const rollMs = Date.now() - t0;
  await sleep(2000);
  sending = false;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (pending.size > 0 || [...acked.values()].some((id) => !delivered.has(id)) || !a.ready || !b.ready)) await sleep(100);
  requesting = false;
  stopping = true;
  await Promise.race([chat, sleep(1000)]);
  await http;

  // The dialog's history, every page.
  const inHistory = new Map<string, number>();
  for (let pageNo = 0; ; pageNo++) {
    const res = await fetch(`${base}/api/v1/dialogs/messages?recipientId=${b.id}&size=100&sort=time,asc&page=${pageNo}`, { headers: { authorization: `Bearer ${a.token}` } });
    const body = (await res.json()) as { content: { messageText: string }[] };
    for (const m of body.content) {
      const id = /rolling (\S+)/.exec(m.messageText)?.[1];
      if (id) inHistory.set(id, (inHistory.get(id) ?? 0) + 1);
    }
    if (body.content.length < 100) break;
  }
  const assetStatuses = await Promise.all(assets.map((u) => fetch(`${base}${u}`).then((r) => r.status).catch(() => 0)));
  a.socket?.close();
  b.socket?.close();

  const lost = [...acked.keys()].filter((c) => !inHistory.has(c)).length;
  const duplicated = [...inHistory.values()].filter((n) => n > 1).length;
  const undelivered = [...acked.values()].filter((id) => !delivered.has(id)).length;
  const deliveredTwice = [...delivered.values()].filter((n) => n > 1).length;
  const failed = [...statuses].filter(([s]) => s === 0 || s >= 500).reduce((n, [, k]) => n + k, 0);
  const requests = [...statuses.values()].reduce((x, y) => x + y, 0);
  const checks: [string, boolean][] = [
    [`npm run restart finished (exit ${code}) in ${(rollMs / 1000).toFixed(1)} s`, code === 0],
    [
      `${acked.size} messages acknowledged, ${pending.size} unanswered, refused: ${[...refused].map(([s, n]) => `${s}×${n}`).join(", ") || "none"}`,
      acked.size > 0 && pending.size === 0 && [...refused.keys()].every((s) => s === 503),
    ],
    [`in the dialog: ${lost} lost, ${duplicated} duplicated`, lost === 0 && duplicated === 0],
    [`on the recipient's socket: ${undelivered} missing, ${deliveredTwice} twice`, undelivered === 0 && deliveredTwice === 0],
    [
      `sockets closed by the roll and resumed: sender ${a.closes - closesBefore.a} closed/${a.resumes} resumed, recipient ${b.closes - closesBefore.b}/${b.resumes}`,
      a.resumes > 0 && b.resumes > 0,
    ],
    [
      `${requests} page and API requests during the roll, none 5xx or unanswered (${[...statuses].map(([s, n]) => `${s}×${n}`).join(", ")}); ` +
        `/api/ready: ${[...readiness].map(([s, n]) => `${s}×${n}`).join(", ")}`,
      failed === 0 && [...readiness.keys()].every((s) => s === 200 || s === 503),
    ],
    [`the ${assets.length} static files of the page loaded before the roll are served (${assetStatuses.filter((s) => s === 200).length} × 200)`, assets.length > 0 && assetStatuses.every((s) => s === 200)],
  ];
  for (const [what, ok] of checks) console.log(`${ok ? "ok  " : "FAIL"} rolling: ${what}`);
  process.exit(checks.every(([, ok]) => ok) ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
