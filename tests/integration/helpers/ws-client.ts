import { WebSocket } from "ws";
import { getDb } from "@/db/client";
import { sql } from "drizzle-orm";
import { appendEvent, sequenceEvents } from "@/lib/server/events/outbox";
import { ALL_FRAMES, FRAMES_PARAM, REALTIME_PATH } from "@/lib/validation/realtime";

export type Frame = { id?: number; type: string; data?: unknown; lastEventId?: number };

type ConnectOptions = {
  token?: string;
  cookie?: string;
  lastEventId?: number | string;
  headers?: Record<string, string>;
  path?: string;
  /**
   * "all" (the default, as Krug's own client): every frame type. "spec": no `frames` parameter, a client
   * written to the specification (MESSAGE and NOTIFICATION only, no READY).
   */
  frames?: "all" | "spec";
};

function urlOf(port: number, opts: ConnectOptions): string {
  const url = new URL(`ws://127.0.0.1:${port}${opts.path ?? REALTIME_PATH}`);
  if ((opts.frames ?? "all") === "all") url.searchParams.set(FRAMES_PARAM, ALL_FRAMES);
  if (opts.lastEventId !== undefined) url.searchParams.set("lastEventId", String(opts.lastEventId));
  return url.toString();
}

function headersOf(opts: ConnectOptions): Record<string, string> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  return headers;
}

/** A test client that queues every frame it receives and hands them out in order. */
export class TestSocket {
  private readonly frames: Frame[] = [];
  private waiter: ((f: Frame) => void) | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (raw) => {
      const frame = JSON.parse(raw.toString()) as Frame;
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w(frame);
      } else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens a socket (every frame type) and waits for READY, after which every new event reaches it. */
  static async open(port: number, opts: ConnectOptions & { frames?: "all" }): Promise<TestSocket & { ready: Frame }> {
    const socket = await TestSocket.connect(port, opts);
    const events: Frame[] = [];
    let frame = await socket.next();
    while (frame.type !== "READY") {
      events.push(frame);
      frame = await socket.next();
    }
    // Resumed events stay readable through next(), in order, before anything live.
    socket.frames.unshift(...events);
    return Object.assign(socket, { ready: frame });
  }

  /** Opens a socket and resolves once it is open (a specification client gets no READY to wait for). */
  static async connect(port: number, opts: ConnectOptions): Promise<TestSocket> {
    const ws = new WebSocket(urlOf(port, opts), { headers: headersOf(opts) });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once("error", reject);
    });
    return socket;
  }

  /** The next frame, READY included. */
  next(): Promise<Frame> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** The next event frame, skipping READY. */
  async nextEvent(): Promise<Frame> {
    for (;;) {
      const f = await this.next();
      if (f.type !== "READY") return f;
    }
  }

  /** Event frames until (and including) the one with id `lastId`. */
  async eventsThrough(lastId: number): Promise<Frame[]> {
    const out: Frame[] = [];
    for (;;) {
      const f = await this.nextEvent();
      out.push(f);
      if (f.id! >= lastId) return out;
    }
  }

  send(message: unknown): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}

/** Attempts an upgrade that must be refused; resolves with the HTTP status the server answered. */
export function refusedStatus(port: number, opts: ConnectOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(urlOf(port, opts), { headers: headersOf(opts) });
    ws.once("open", () => {
      ws.terminate();
      reject(new Error("the upgrade was accepted"));
    });
    ws.once("unexpected-response", (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    ws.once("error", () => {});
  });
}

/** Commits one event for `recipients` and returns its position (the id its frame carries). */
export async function commitEvent(recipients: number[], data: unknown = { n: Math.random() }, type = "NOTIFICATION") {
  const id = await getDb().transaction((tx) => appendEvent(tx, { type, recipients, data }));
  return (await positionsOf([id]))[0];
}

/** The positions of committed events (row ids from appendEvent), sequencing them first. */
export async function positionsOf(ids: number[]): Promise<number[]> {
  await sequenceEvents(getDb());
  const rows = await getDb().execute<{ id: string; position: string }>(sql`
    select id, position from events where id = any(${`{${ids.join(",")}}`}::bigint[])`);
  const byId = new Map(rows.map((r) => [Number(r.id), Number(r.position)]));
  return ids.map((id) => byId.get(id)!);
}
