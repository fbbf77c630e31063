import "server-only";
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { databaseUrl } from "@/db/client";
import { hashToken } from "@/lib/server/auth/tokens";
import { env, type Env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { RateLimitedError } from "./errors";

/**
 * Attempt limits kept in Postgres (table rate_limits, made by our migrations), so every app
 * instance counts against the same numbers. Each limit reads "points per duration" from its
 * RATE_LIMIT_* setting; tests lower them with vi.stubEnv before the first request.
 */
const LIMITS = {
  loginAccount: "RATE_LIMIT_LOGIN_ACCOUNT",
  loginIp: "RATE_LIMIT_LOGIN_IP",
  register: "RATE_LIMIT_REGISTER",
  captcha: "RATE_LIMIT_CAPTCHA",
  recoveryIp: "RATE_LIMIT_RECOVERY",
  // Every mail with a link counts against its address (recovery, password change, e-mail change).
  mailAddress: "RATE_LIMIT_RECOVERY",
  upload: "RATE_LIMIT_UPLOAD",
  search: "RATE_LIMIT_SEARCH",
  friendRequest: "RATE_LIMIT_FRIEND_REQUEST",
  // Writes per account, counted by the service verbs (REST and the realtime sidecar alike): ADR 0109.
  post: "RATE_LIMIT_POST",
  comment: "RATE_LIMIT_COMMENT",
  message: "RATE_LIMIT_MESSAGE",
  messageBurst: "RATE_LIMIT_MESSAGE_BURST",
  // Edits and deletions of chat messages (PUT/DELETE dialogs/{id}/messages/{messageId}, docs/adr/0129).
  messageEdit: "RATE_LIMIT_MESSAGE_EDIT",
  reaction: "RATE_LIMIT_REACTION",
  // PUT/DELETE post, post/{id}/recover, PUT/DELETE comments and comment …/recover, together.
  contentChange: "RATE_LIMIT_CONTENT_CHANGE",
  subscribe: "RATE_LIMIT_SUBSCRIBE",
  weather: "RATE_LIMIT_WEATHER",
  pushSubscribe: "RATE_LIMIT_PUSH_SUBSCRIBE",
  // PUT account/privacy (docs/adr/0125).
  privacy: "RATE_LIMIT_PRIVACY",
  // POST reports (issue 26, docs/adr/0126).
  report: "RATE_LIMIT_REPORT",
  // Group conversations (issue 41, docs/adr/0169).
  groupCreate: "RATE_LIMIT_GROUP_CREATE",
  groupAdd: "RATE_LIMIT_GROUP_ADD",
  groupChange: "RATE_LIMIT_GROUP_CHANGE",
  // Communities (issue 42).
  communityCreate: "RATE_LIMIT_COMMUNITY_CREATE",
  communityJoin: "RATE_LIMIT_COMMUNITY_JOIN",
  communityInvite: "RATE_LIMIT_COMMUNITY_INVITE",
  communityChange: "RATE_LIMIT_COMMUNITY_CHANGE",
  // The fediverse's inboxes, per remote server (issue 43, docs/adr/0172).
  federationInbox: "RATE_LIMIT_FEDERATION_INBOX",
} as const satisfies Record<string, keyof Env>;

export type LimitName = keyof typeof LIMITS;

/**
 * Limits only ever consumed (never reset or penalised): once one is spent for a key, this process refuses
 * that key from memory until the window ends, so a flood of refused writes costs the database nothing.
 */
const BLOCK_IN_MEMORY: ReadonlySet<LimitName> = new Set(["post", "comment", "message", "messageBurst", "messageEdit", "contentChange", "reaction", "subscribe", "friendRequest", "weather", "pushSubscribe", "report", "groupCreate", "groupAdd", "groupChange", "communityCreate", "communityJoin", "communityInvite", "communityChange", "federationInbox"]);

/** The text of a refusal (a messages/*.json key, translated by the API), where "too many attempts" would not fit. */
const REFUSAL: Partial<Record<LimitName, string>> = {
  post: "postErrors.rateLimited",
  comment: "commentErrors.rateLimited",
  message: "chatErrors.rateLimited",
  messageBurst: "chatErrors.rateLimited",
  messageEdit: "chatErrors.editRateLimited",
  contentChange: "errors.changesRateLimited",
  pushSubscribe: "pushErrors.rateLimited",
  privacy: "privacyErrors.rateLimited",
  report: "reportErrors.rateLimited",
  groupCreate: "chatErrors.groupRateLimited",
  groupAdd: "chatErrors.groupRateLimited",
  groupChange: "chatErrors.groupRateLimited",
  communityCreate: "communityErrors.rateLimited",
  communityJoin: "communityErrors.rateLimited",
  communityInvite: "communityErrors.rateLimited",
  communityChange: "communityErrors.rateLimited",
};

type Store = { url: string; pool: pg.Pool; limiters: Map<LimitName, RateLimiterPostgres> };
const globalForLimits = globalThis as unknown as { __krugRateLimits?: Store };

/** One small pg Pool per process (rate-limiter-flexible speaks pg, not postgres.js), made on first use. */
function store(): Store {
  const url = databaseUrl();
  const cached = globalForLimits.__krugRateLimits;
  if (cached && cached.url === url) return cached;
  // Tests point DATABASE_URL at a new database per file: the old pool belongs to a dropped one.
  if (cached) void cached.pool.end().catch(() => {});
  // A counter's commit does not wait for the WAL to reach the disk (synchronous_commit off, for these
  // connections only): it is still atomic and immediately visible to every instance, and a database
  // crash can lose at most the last fraction of a second of attempts, which a limit can afford. The
  // request that counts (every people search, every sign-in) then does not wait for an fsync.
  const pool = new pg.Pool({ connectionString: url, max: 4, idleTimeoutMillis: 30_000, allowExitOnIdle: true, options: "-c synchronous_commit=off" });
  // An idle client that loses its server (restart, dropped test database) must not crash the process.
  pool.on("error", (err) => log.warn({ err }, "rate limit pool: idle client error"));
  const created: Store = { url, pool, limiters: new Map() };
  globalForLimits.__krugRateLimits = created;
  return created;
}

function limiter(name: LimitName): RateLimiterPostgres {
  const s = store();
  let found = s.limiters.get(name);
  if (!found) {
    const { points, seconds } = env()[LIMITS[name]];
    found = new RateLimiterPostgres({
      storeClient: s.pool,
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix: name,
      points,
      duration: seconds,
      inMemoryBlockOnConsumed: BLOCK_IN_MEMORY.has(name) ? points : 0,
      // All limits share one table: one sweeper (every 5 minutes, rows expired over an hour ago) is enough.
      clearExpiredByTimeout: s.limiters.size === 0,
    });
    s.limiters.set(name, found);
  }
  return found;
}

/** Keys are hashed: the table never holds e-mail addresses or IPs, and long keys fit varchar(255). */
function keyOf(key: string): string {
  return hashToken(key.trim().toLowerCase()).slice(0, 40);
}

/** Counts one attempt; throws RateLimitedError (429 with Retry-After) once the limit is spent. */
export async function consumeLimit(name: LimitName, key: string): Promise<void> {
  try {
    await limiter(name).consume(keyOf(key));
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new RateLimitedError(err.msBeforeNext / 1000, REFUSAL[name] ?? "errors.rateLimited");
    throw err;
  }
}

/** Counts `points` attempts at once (adding ten people to a conversation spends ten); throws RateLimitedError past the limit. */
export async function consumeLimitPoints(name: LimitName, key: string, points: number): Promise<void> {
  try {
    await limiter(name).consume(keyOf(key), points);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new RateLimitedError(err.msBeforeNext / 1000, REFUSAL[name] ?? "errors.rateLimited");
    throw err;
  }
}

/** Until when (ms since the epoch) a window counted by `consumeWindows` refuses its key from memory. */
const spentUntil = new Map<string, number>();
const SPENT_KEPT = 10_000;

/**
 * Counts one attempt of `key` against several windows in one statement (a chat send's minute and burst:
 * one round trip on the hot path, ADR 0109). It is the upsert RateLimiterPostgres makes for one window,
 * written for several rows, on the library's own rows (key `<name>:<hashed key>`, points, expire in ms),
 * so the library's reads, resets and sweeper see them. A spent window refuses its key from this
 * process's memory until it ends, as `inMemoryBlockOnConsumed` does; refused, the longest wait of the
 * spent windows is the Retry-After.
 */
async function consumeWindows(names: readonly LimitName[], key: string): Promise<void> {
  for (const name of names) limiter(name); // the table's sweeper runs once any limiter exists
  const now = Date.now();
  const hashed = keyOf(key);
  const rlKeys = names.map((name) => `${name}:${hashed}`);
  const refusal = REFUSAL[names[0]] ?? "errors.rateLimited";
  const blockedUntil = Math.max(0, ...rlKeys.map((k) => spentUntil.get(k) ?? 0));
  if (blockedUntil > now) throw new RateLimitedError((blockedUntil - now) / 1000, refusal);
  const windows = names.map((name) => env()[LIMITS[name]]);
  const nowParam = `$${2 * names.length + 1}`;
  const { rows } = await store().pool.query<{ key: string; points: number; expire: string }>({
    name: `rate_limits:consume-${names.length}`,
    text: `insert into rate_limits (key, points, expire) values ${names.map((_, i) => `($${2 * i + 1}, 1, $${2 * i + 2}::bigint)`).join(", ")}
      on conflict (key) do update set
        points = case when rate_limits.expire <= ${nowParam} then 1 else rate_limits.points + 1 end,
        expire = case when rate_limits.expire <= ${nowParam} then excluded.expire else rate_limits.expire end
      returning key, points, expire`,
    values: [...rlKeys.flatMap((k, i) => [k, now + windows[i].seconds * 1000]), now],
  });
  let wait = 0;
  for (const row of rows) {
    const window = windows[rlKeys.indexOf(row.key)];
    const msLeft = Math.max(Number(row.expire) - now, 0);
    if (row.points >= window.points) {
      if (spentUntil.size >= SPENT_KEPT) for (const [k, until] of spentUntil) if (until <= now) spentUntil.delete(k);
      spentUntil.set(row.key, now + msLeft);
    }
    if (row.points > window.points) wait = Math.max(wait, msLeft);
  }
  if (wait > 0) throw new RateLimitedError(wait / 1000, refusal);
}

/**
 * Counts one write of an account against each of `names` (a chat send counts its minute and its burst,
 * in one statement); 429 with Retry-After once one is spent.
 */
export function consumeAccountLimits(names: readonly LimitName[], accountId: number): Promise<void> {
  const key = `account:${accountId}`;
  return names.length === 1 ? consumeLimit(names[0], key) : consumeWindows(names, key);
}

/** Throws RateLimitedError if the key's attempts are already spent, without counting this one. */
export async function assertLimitNotSpent(name: LimitName, key: string): Promise<void> {
  const l = limiter(name);
  const res = await l.get(keyOf(key));
  if (res && res.consumedPoints >= l.points) throw new RateLimitedError(res.msBeforeNext / 1000, "errors.rateLimited");
}

/** Counts one failed attempt (limits that only failures spend, such as wrong passwords). */
export async function countFailure(name: LimitName, key: string): Promise<void> {
  try {
    await limiter(name).penalty(keyOf(key), 1);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
  }
}

/** Forgets the attempts of a key, e.g. the failed logins of an account once it signs in. */
export async function resetLimit(name: LimitName, key: string): Promise<void> {
  await limiter(name).delete(keyOf(key));
}

/** Uploads: RATE_LIMIT_UPLOAD per account (default 30 per 30 minutes). */
export function consumeUploadLimit(accountId: number): Promise<void> {
  return consumeLimit("upload", `account:${accountId}`);
}

/** Closes the pool (tests and graceful shutdown). */
export async function closeRateLimitStore(): Promise<void> {
  const cached = globalForLimits.__krugRateLimits;
  globalForLimits.__krugRateLimits = undefined;
  if (cached) await cached.pool.end();
}
