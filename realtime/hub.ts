import { WebSocket } from "ws";
import { processMetrics } from "@/lib/server/metrics/registry";
import type { Db } from "@/db/client";
import { drainOutbox, latestEventId, personalise, readAccountEventsAfter, type OutboxEvent } from "@/lib/server/events/outbox";
import { CLOSE_SESSION_ENDED, SESSION_ENDED_EVENT, SPEC_FRAME_TYPES, type RealtimeEventFrame, type RealtimeReadyFrame } from "@/lib/validation/realtime";

export type Logger = {
  debug: (obj: object, msg?: string) => void;
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
};

/** An event ready for the wire: serialised once, however many sockets receive it. */
type Outgoing = { id: number; type: string; raw: string };

/** A frame with no outbox id (READY, TYPING, PRESENCE, replies): its type decides who may receive it. */
export type TransientFrame = { type: string };

/** One open socket of one account. */
/** Live events held for one socket while its resume read runs; beyond this the socket is dropped. */
export const MAX_RESUME_BUFFER = 1_000;

export type Client = {
  ws: WebSocket;
  accountId: number;
  sessionId: string;
  /** Answered the last ping; a socket still false at the next ping is dead. */
  alive: boolean;
  /** The highest event id sent on this socket: nothing at or below it is sent again. */
  lastSentId: number;
  /** Resumes queued or running; while above zero, live events wait in `buffer`. */
  pendingResumes: number;
  buffer: Outgoing[];
  /** Live events were dropped from a full buffer: the resume must read the outbox again. */
  overflowed?: boolean;
  /** Resumes of one socket run one after another. */
  queue: Promise<void>;
  /** The tab is visible (its last VISIBILITY frame; true until it sends one). */
  visible: boolean;
  /**
   * Opened with `frames=all` (Krug's own client): every frame type. Otherwise the socket is the
   * specification's and receives only SPEC_FRAME_TYPES (docs/adr/0165).
   */
  allFrames: boolean;
};

const PAGE_SIZE = 500;
/** Frames sent to clients (docs/adr/0140). */
const framesOut = processMetrics("realtime").frames.labels({ direction: "out" });
const DRAIN_RETRY_MS = 1_000;
// Producers wake the sidecars after their commit (outbox.ts#notifyAppended); a wake-up lost between the
// two (the producer's process died) is covered by this sweep: the event waits at most this long.
export const DRAIN_SWEEP_MS = 1_000;
// A socket this far behind is not reading: drop it, and it resumes from its last event id.
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function outgoing(e: OutboxEvent): Outgoing {
  const frame: RealtimeEventFrame = { id: e.id, type: e.type, data: e.data };
  return { id: e.id, type: e.type, raw: JSON.stringify(frame) };
}

/**
 * The sidecar's delivery core. It keeps only what this process needs: its own sockets by account and
 * the id of the last event it fanned out. Everything else is read from the outbox, so any number of
 * hubs in any number of processes deliver to their own sockets without knowing about each other.
 */
export class Hub {
  private readonly byAccount = new Map<number, Set<Client>>();
  /** Visible sockets per account (only accounts with at least one). */
  private readonly visibleByAccount = new Map<number, number>();
  private cursor = 0;
  private draining: Promise<void> | null = null;
  private drainAgain = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    /** Called after a drain that fanned out at least one event (the push dispatcher, realtime/push.ts). */
    private readonly afterFanOut?: () => void,
  ) {}

  /** Live delivery starts after the newest event that exists now. */
  async start(): Promise<void> {
    this.cursor = await latestEventId(this.db);
    this.sweepTimer = setInterval(() => this.requestDrain(), DRAIN_SWEEP_MS);
    this.sweepTimer.unref();
  }

  get lastDeliveredId(): number {
    return this.cursor;
  }

  get socketCount(): number {
    let n = 0;
    for (const set of this.byAccount.values()) n += set.size;
    return n;
  }

  get accountIds(): number[] {
    return [...this.byAccount.keys()];
  }

  /** Accounts with at least one visible socket here: their tab shows what happens (the push dispatcher leaves them out). */
  get visibleAccountIds(): number[] {
    return [...this.visibleByAccount.keys()];
  }

  private countVisible(accountId: number, by: number): void {
    const n = (this.visibleByAccount.get(accountId) ?? 0) + by;
    if (n <= 0) this.visibleByAccount.delete(accountId);
    else this.visibleByAccount.set(accountId, n);
  }

  /** A registered socket reported its tab's visibility. */
  setVisible(client: Client, visible: boolean): void {
    if (client.visible === visible) return;
    client.visible = visible;
    if (this.byAccount.get(client.accountId)?.has(client)) this.countVisible(client.accountId, visible ? 1 : -1);
  }

  clients(): Client[] {
    return [...this.byAccount.values()].flatMap((set) => [...set]);
  }

  /** Registers a socket; true when it is the account's first one here. */
  add(client: Client): boolean {
    if (client.visible) this.countVisible(client.accountId, 1);
    const set = this.byAccount.get(client.accountId);
    if (set) {
      set.add(client);
      return false;
    }
    this.byAccount.set(client.accountId, new Set([client]));
    return true;
  }

  /** Unregisters a socket; true when it was the account's last one here. */
  remove(client: Client): boolean {
    const set = this.byAccount.get(client.accountId);
    if (!set?.delete(client)) return false;
    if (client.visible) this.countVisible(client.accountId, -1);
    if (set.size > 0) return false;
    this.byAccount.delete(client.accountId);
    return true;
  }

  /**
   * Sequences committed events and reads every one after the cursor and fans it out. One drain runs at a time; a
   * request during a drain makes it go round once more, so a NOTIFY is never lost to a race.
   */
  requestDrain(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    do {
      this.drainAgain = false;
      try {
        // Each step sequences a batch of committed events (ADR 32; whichever sidecar gets the lock does
        // it) and reads what follows the cursor, in one round trip (ADR 0095). A full page means more
        // may wait, sequenced or not: go round again.
        let fannedOut = 0;
        for (;;) {
          const batch = await drainOutbox(this.db, this.cursor, PAGE_SIZE);
          for (const event of batch) {
            this.dispatch(event);
            this.cursor = event.id;
          }
          fannedOut += batch.length;
          if (batch.length < PAGE_SIZE || this.stopped) break;
        }
        if (fannedOut > 0) this.afterFanOut?.();
      } catch (err) {
        // The database is away; LISTEN's reconnect drains again too, this timer covers a NOTIFY lost meanwhile.
        this.log.error({ err, cursor: this.cursor }, "realtime drain failed");
        if (!this.stopped && !this.retryTimer) {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.requestDrain();
          }, DRAIN_RETRY_MS);
        }
        return;
      }
    } while (this.drainAgain && !this.stopped);
  }

  private dispatch(event: OutboxEvent): void {
    let shared: Outgoing | undefined;
    event.recipients.forEach((accountId, i) => {
      const set = this.byAccount.get(accountId);
      if (!set) return;
      if (event.type === SESSION_ENDED_EVENT) {
        // The account was blocked: its sockets end now, not at the next session check.
        for (const client of set) client.ws.close(CLOSE_SESSION_ENDED, "Session ended");
        return;
      }
      // A shared event (one for a whole fan-out) is serialised per recipient here, a plain one once.
      const out = event.subjects
        ? outgoing({ ...event, data: personalise(event.data, accountId, event.subjects[i]) })
        : (shared ??= outgoing(event));
      for (const client of set) {
        if (client.pendingResumes === 0) this.sendEvent(client, out);
        else if (client.buffer.length < MAX_RESUME_BUFFER) client.buffer.push(out);
        else {
          // Bounded: past the cap the buffer is dropped and the resume reads the rest from the outbox
          // once more (every buffered event is there), so memory stays flat and nothing is lost.
          client.buffer = [];
          client.overflowed = true;
        }
      }
    });
  }

  /**
   * Sends the account's events after `afterId` (or none, when absent: the socket then starts at the
   * newest event), then whatever arrived live meanwhile, then READY. Live events for this socket are
   * buffered from this call on, so the hand-over from the read to live delivery has no gap and no
   * duplicate: ids are in commit order, and nothing at or below the last id sent goes out again.
   */
  resume(client: Client, afterId: number | undefined): Promise<void> {
    client.pendingResumes += 1;
    const run = async () => {
      try {
        await this.catchUp(client, afterId);
        while (client.overflowed && client.ws.readyState === WebSocket.OPEN && !this.stopped) {
          client.overflowed = false;
          await this.catchUp(client, client.lastSentId);
        }
      } catch (err) {
        this.log.warn({ err, accountId: client.accountId }, "realtime resume failed");
        // The client reconnects and resumes from its own last id; nothing is lost.
        if (client.ws.readyState === WebSocket.OPEN) client.ws.close(1011, "Resume failed");
      } finally {
        // Synchronous with the end of the read: no live event can slip between the flush and the switch.
        client.pendingResumes -= 1;
        if (client.pendingResumes === 0) {
          const buffered = client.buffer;
          client.buffer = [];
          for (const out of buffered) this.sendEvent(client, out);
          const ready: RealtimeReadyFrame = { type: "READY", lastEventId: client.lastSentId };
          this.sendRaw(client, ready.type, JSON.stringify(ready));
        }
      }
    };
    client.queue = client.queue.then(run);
    return client.queue;
  }

  private async catchUp(client: Client, afterId: number | undefined): Promise<void> {
    // A client id beyond the newest event comes from another database (a reset): start it afresh.
    const newest = await latestEventId(this.db);
    let after = afterId === undefined ? newest : Math.min(afterId, newest);
    client.lastSentId = after;
    while (client.ws.readyState === WebSocket.OPEN && !this.stopped) {
      const page = await readAccountEventsAfter(this.db, client.accountId, after, PAGE_SIZE);
      for (const event of page) this.sendEvent(client, outgoing(event));
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1].id;
    }
  }

  /** A short-lived frame (no outbox id) to every socket of the account here; never buffered or resumed. */
  sendTransient(accountId: number, frame: TransientFrame, raw = JSON.stringify(frame)): void {
    const set = this.byAccount.get(accountId);
    if (!set) return;
    for (const client of set) this.sendRaw(client, frame.type, raw);
  }

  /** A short-lived frame to one socket (a reply to what it sent). */
  sendTransientTo(client: Client, frame: TransientFrame, raw = JSON.stringify(frame)): void {
    this.sendRaw(client, frame.type, raw);
  }

  private sendEvent(client: Client, out: Outgoing): void {
    if (out.id <= client.lastSentId) return;
    client.lastSentId = out.id;
    this.sendRaw(client, out.type, out.raw);
  }

  /** Every frame goes out here: a socket of the specification's gets only the specification's types. */
  private sendRaw(client: Client, type: string, raw: string): void {
    const { ws } = client;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (!client.allFrames && !SPEC_FRAME_TYPES.includes(type)) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log.warn({ accountId: client.accountId }, "realtime socket not reading; dropped");
      ws.terminate();
      return;
    }
    ws.send(raw);
    framesOut.inc();
  }

  /** Stops draining and waits for a running drain, so no query outlives the server. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.draining;
    await Promise.all(this.clients().map((c) => c.queue));
  }
}
