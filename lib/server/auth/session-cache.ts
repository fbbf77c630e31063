import "server-only";
import postgres from "postgres";
import { afterCommit, databaseUrl, postgresTarget, type Tx } from "@/db/client";
import { log } from "@/lib/server/log";
import type { AccountDtoRow } from "@/lib/server/services/accounts/account-columns";

/**
 * The in-process cache of verified sessions (docs/adr/0135): what the session check reads (the session is
 * live; its account's role, deletion state and language; the account is not blocked) kept for up to
 * `ttlMs`, so a signed-in request whose session was seen in the last minute makes no round trip for it.
 *
 * Revocation:
 * - the process that ends a session or changes its account forgets it at once and again after its commit
 *   (`forgetSessions` / `forgetAccounts`, called by the write sites);
 * - every process hears of it through NOTIFY on `krug_sessions`, sent by triggers on `sessions` and
 *   `accounts` (migration 0039) in the changing transaction, so only on commit and whoever made the change;
 * - a listener that cannot prove it is live switches the cache off: every check goes to the database
 *   until it has listened again and cleared everything. "Live" means a ping on the listening connection
 *   sent less than `trustMs` ago has been answered: Postgres delivers every notification pending for a
 *   session before it answers a query (PostgresMain), so everything committed before that ping was heard.
 *
 * Beside the sessions it keeps the own account's row (the columns its DTO is made of) of accounts that
 * read `account/me` (docs/adr/0155), by account id, under the same rules: forgotten by the process that
 * changes it and, through the trigger of migration 0044 ('r:<account id>'), by every other; stored only
 * if nothing was forgotten since the read began; off whenever the listener is. Kept at most 30 s, because
 * the presence touches of a connected account do not notify (only its coming back online does).
 */

export const SESSIONS_CHANNEL = "krug_sessions";

export type CachedSession = {
  accountId: number;
  role: "USER" | "MODERATOR" | "ADMIN";
  isDeleted: boolean;
  language: string;
  /** The session's absolute end (epoch ms): an entry never outlives it. */
  sessionExpiresAt: number;
};

type Entry = CachedSession & { storedAt: number };

type RowEntry = { row: Readonly<AccountDtoRow>; storedAt: number };

export type SessionCacheOptions = {
  url: string;
  /** Entries kept, least recently used dropped first. */
  maxEntries?: number;
  /** The longest an entry is trusted (at most 60 s). */
  ttlMs?: number;
  /** How often the listener pings its connection. */
  pingMs?: number;
  /** The cache is on only while a ping sent less than this long ago was answered. */
  trustMs?: number;
  /** application_name of the listening connection. */
  name?: string;
  /** Measures entries' ages (milliseconds, monotonic); tests step it by hand. */
  clock?: () => number;
};

const MAX_TTL_MS = 60_000;

/**
 * The longest an own account's row is kept: a connected account's presence is touched every 60 s without a
 * notification, and a row at most 30 s old still shows it online (60 + 30 < the 120 s online window).
 */
export const ROW_TTL_MS = 30_000;

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly rows = new Map<number, RowEntry>();
  private generation = 0;
  private sql: postgres.Sql | undefined;
  private listening = false;
  private verifiedAt = Number.NEGATIVE_INFINITY;
  private pid: number | undefined;
  private stopped = false;
  private attempt = 0;
  private pingTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly url: string;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly rowTtlMs: number;
  private readonly pingMs: number;
  private readonly trustMs: number;
  private readonly name: string;
  private readonly clock: () => number;
  private firstListen: Promise<void>;
  private resolveFirstListen!: () => void;

  constructor(options: SessionCacheOptions) {
    this.url = options.url;
    this.maxEntries = Math.max(1, options.maxEntries ?? 20_000);
    this.ttlMs = Math.min(MAX_TTL_MS, options.ttlMs ?? MAX_TTL_MS);
    this.rowTtlMs = Math.min(ROW_TTL_MS, this.ttlMs);
    this.pingMs = options.pingMs ?? 250;
    this.trustMs = options.trustMs ?? 1_000;
    this.name = options.name ?? "krug-session-cache";
    this.clock = options.clock ?? (() => performance.now());
    this.firstListen = new Promise((resolve) => (this.resolveFirstListen = resolve));
  }

  /** Connects and listens; resolves once listening (or when stopped). Retries with backoff meanwhile. */
  start(): Promise<void> {
    void this.connect();
    return this.firstListen;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pingTimer);
    clearTimeout(this.retryTimer);
    const sql = this.sql;
    this.sql = undefined;
    this.listening = false;
    this.clear();
    this.resolveFirstListen();
    await sql?.end({ timeout: 1 }).catch(() => {});
  }

  /** Whether entries may be used now: the listener is connected and proved live within trustMs. */
  get on(): boolean {
    return this.listening && performance.now() - this.verifiedAt <= this.trustMs;
  }

  /** The backend pid of the listening connection (undefined while off). */
  get listenerPid(): number | undefined {
    return this.pid;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Own account rows kept. */
  get rowCount(): number {
    return this.rows.size;
  }

  /** Taken before a database read whose result may be stored: any forgetting meanwhile voids the store. */
  get epoch(): number {
    return this.generation;
  }

  get(sessionId: string, accountId: number): CachedSession | undefined {
    if (!this.on) return undefined;
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.accountId !== accountId || this.clock() - entry.storedAt > this.ttlMs || entry.sessionExpiresAt <= Date.now()) {
      this.entries.delete(sessionId);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so the first key is the one to drop.
    this.entries.delete(sessionId);
    this.entries.set(sessionId, entry);
    return entry;
  }

  /** Stores what a database read found, unless something was forgotten since `epoch` or the cache is off. */
  put(sessionId: string, value: CachedSession, epoch: number): void {
    if (epoch !== this.generation || !this.on) return;
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { ...value, storedAt: this.clock() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The own account row of `accountId`, as read at most 30 s ago with nothing heard of a change since. */
  getRow(accountId: number): Readonly<AccountDtoRow> | undefined {
    if (!this.on) return undefined;
    const entry = this.rows.get(accountId);
    if (!entry) return undefined;
    if (this.clock() - entry.storedAt > this.rowTtlMs) {
      this.rows.delete(accountId);
      return undefined;
    }
    this.rows.delete(accountId);
    this.rows.set(accountId, entry);
    return entry.row;
  }

  /** Stores an own account row read from the database, under put's rule (nothing forgotten since `epoch`). */
  putRow(accountId: number, row: AccountDtoRow, epoch: number): void {
    if (epoch !== this.generation || !this.on || row.id !== accountId) return;
    this.rows.delete(accountId);
    // Shared by every request that reads it: frozen, so no caller can change what the next one sees.
    this.rows.set(accountId, { row: Object.freeze({ ...row }), storedAt: this.clock() });
    if (this.rows.size > this.maxEntries) this.rows.delete(this.rows.keys().next().value!);
  }

  /** The account's row changed: its copy goes (sessions stay: nothing the session check reads changed). */
  forgetRow(accountId: number): void {
    this.generation++;
    this.rows.delete(accountId);
  }

  forgetSession(sessionId: string): void {
    this.generation++;
    this.entries.delete(sessionId);
  }

  forgetAccount(accountId: number): void {
    this.generation++;
    this.rows.delete(accountId);
    // A scan: these writes are rare (sign-out everywhere, a block, a role or deletion change).
    for (const [key, entry] of this.entries) if (entry.accountId === accountId) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.rows.clear();
  }

  /**
   * A notification from the triggers: "s:<session id>", "a:<account id>" (the session check's view of the
   * account), "r:<account id>" (its row only); anything else forgets everything.
   */
  heard(payload: string): void {
    if (payload.startsWith("s:")) this.forgetSession(payload.slice(2));
    else if (payload.startsWith("a:") && /^\d+$/.test(payload.slice(2))) this.forgetAccount(Number(payload.slice(2)));
    else if (payload.startsWith("r:") && /^\d+$/.test(payload.slice(2))) this.forgetRow(Number(payload.slice(2)));
    else this.clear();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    // postgres.js calls `onnotify` for every NotificationResponse (its own `listen` uses it; the types omit it).
    const notifications = {
      onnotify: (channel: string, payload: string) => {
        if (channel === SESSIONS_CHANNEL) this.heard(payload);
      },
    } as unknown as Record<string, never>;
    const target = postgresTarget(this.url);
    const sql: postgres.Sql = postgres(target.url, {
      ...target.options,
      ...notifications,
      max: 1,
      idle_timeout: 0,
      max_lifetime: 0,
      connect_timeout: 5,
      fetch_types: false,
      prepare: false,
      onnotice: () => {},
      connection: { application_name: this.name },
      onclose: () => this.lost(sql, "the listening connection closed"),
    });
    this.sql = sql;
    try {
      const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await sql.unsafe(`listen ${SESSIONS_CHANNEL}`);
      if (this.sql !== sql) return;
      // Resynchronised: whatever was kept before may have missed notifications while nobody listened.
      this.clear();
      this.pid = row.pid;
      this.attempt = 0;
      this.verifiedAt = performance.now();
      this.listening = true;
      this.schedulePing(sql);
      this.resolveFirstListen();
    } catch (err) {
      this.lost(sql, err);
    }
  }

  private schedulePing(sql: postgres.Sql) {
    this.pingTimer = setTimeout(() => void this.ping(sql), this.pingMs);
    this.pingTimer.unref();
  }

  private async ping(sql: postgres.Sql) {
    if (this.sql !== sql) return;
    const sent = performance.now();
    // An answer that takes longer than the trust window is a connection we no longer trust.
    const deadline = setTimeout(() => this.lost(sql, "the listening connection stopped answering"), this.trustMs);
    deadline.unref();
    try {
      await sql`select 1`;
      if (this.sql !== sql) return;
      this.verifiedAt = sent;
      this.schedulePing(sql);
    } catch (err) {
      this.lost(sql, err);
    } finally {
      clearTimeout(deadline);
    }
  }

  private lost(sql: postgres.Sql, reason: unknown) {
    if (this.sql !== sql) return;
    this.sql = undefined;
    const wasOn = this.listening;
    this.listening = false;
    this.pid = undefined;
    this.clear();
    clearTimeout(this.pingTimer);
    void sql.end({ timeout: 0 }).catch(() => {});
    if (this.stopped) return;
    if (wasOn) log.warn({ err: reason }, "session cache off: its listener is gone; checking every session in the database until it is back");
    const delay = Math.min(5_000, 50 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }
}

const GLOBAL_KEY = Symbol.for("krug.sessionCache");
const holder = globalThis as unknown as Record<symbol, SessionCache | undefined>;

/** The process's cache (one per process, whichever bundle asks), or undefined: every check reads the database. */
export function sessionCache(): SessionCache | undefined {
  return holder[GLOBAL_KEY];
}

export function installSessionCache(cache: SessionCache | undefined): void {
  holder[GLOBAL_KEY] = cache;
}

/** Entries per process: about 200 bytes each, so 20,000 sessions seen in the last minute hold about 4 MB. */
export const SESSION_CACHE_ENTRIES = 20_000;

/**
 * Starts the process's cache (a web worker's start-up, instrumentation.ts). Idempotent. Resolves once it
 * listens (until then, and whenever it does not, every check reads the database).
 */
export async function startSessionCache(url: string = databaseUrl(), maxEntries = SESSION_CACHE_ENTRIES): Promise<SessionCache> {
  const existing = sessionCache();
  if (existing) return existing;
  const cache = new SessionCache({ url, maxEntries, name: `krug-session-cache-${process.pid}` });
  installSessionCache(cache);
  await cache.start();
  return cache;
}

/**
 * A write site ends these sessions or changes these accounts' viewer state: the performing process
 * forgets them now and again once `tx` has committed (a read that raced the write cannot keep the old
 * state), so its very next request reads the database. Other processes learn of it from the trigger's
 * NOTIFY. A savepoint (no after-commit hook) relies on that NOTIFY, which reaches this process too.
 */
export function forgetSessions(tx: Tx, sessionIds: readonly string[]): void {
  forget(tx, (cache) => sessionIds.forEach((id) => cache.forgetSession(id)));
}

export function forgetAccounts(tx: Tx, accountIds: readonly number[]): void {
  forget(tx, (cache) => accountIds.forEach((id) => cache.forgetAccount(id)));
}

/** A write site changes what these accounts' DTOs show (names, photo, place, privacy, e-mail): same rule. */
export function forgetAccountRows(tx: Tx, accountIds: readonly number[]): void {
  forget(tx, (cache) => accountIds.forEach((id) => cache.forgetRow(id)));
}

function forget(tx: Tx, run: (cache: SessionCache) => void) {
  const cache = sessionCache();
  if (!cache) return;
  run(cache);
  afterCommit(tx, async () => run(cache));
}
