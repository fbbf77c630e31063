import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { alias, type SelectedFields } from "drizzle-orm/pg-core";
import { accounts, friendships, sessions } from "@/db/schema";
import { selectStatement } from "@/db/statement";
import { accountDtoColumns, accountDtoColumnsOf, type AccountDtoRow } from "@/lib/server/services/accounts/account-columns";
import { sessionCache, type CachedSession, type SessionCache } from "./session-cache";
import { verifyAccessToken, type AccessClaims } from "./tokens";

export type Viewer = {
  id: number;
  sessionId: string;
  role: "USER" | "MODERATOR" | "ADMIN";
  isDeleted: boolean;
  language: string;
};

const viewerColumns = {
  id: accounts.id,
  role: accounts.role,
  isDeleted: accounts.isDeleted,
  isBlocked: accounts.isBlocked,
  language: accounts.language,
  sessionExpiresAt: sessions.expiresAt,
};

// The session must be the token's, of the token's account, not revoked and not expired.
const liveSession = and(
  eq(sessions.id, sql.placeholder("sessionId")),
  eq(sessions.accountId, sql.placeholder("accountId")),
  isNull(sessions.revokedAt),
  gt(sessions.expiresAt, sql.placeholder("now")),
);

/**
 * The session ⋈ account read behind every signed-in request: its SQL is built once (not on every request)
 * and runs as a cached prepared statement (db/client.ts). The plain-column reads (the viewer, the viewer
 * with its own account, the own account on a cache hit) run as statements of db/statement.ts: drizzle's
 * text, mapped column by column without drizzle's per-call work (docs/adr/0153); the reads of another
 * account (nested, left-joined) stay drizzle's prepared queries.
 */
const sessionJoin = (db: DbOrTx, columns: SelectedFields) => db.select(columns).from(sessions).innerJoin(accounts, eq(accounts.id, sessions.accountId));
const withAccountColumns = { ...accountDtoColumns, ...viewerColumns };

const viewerStatement = selectStatement<ViewerRow, Params>((db) => sessionJoin(db, viewerColumns).where(liveSession).limit(1), viewerColumns);
// The viewer and its own account's DTO columns in one round trip (GET account/me).
const withAccountStatement = selectStatement<ViewerRow & AccountDtoRow, Params>((db) => sessionJoin(db, withAccountColumns).where(liveSession).limit(1), withAccountColumns);
// On a cache hit (docs/adr/0135) the session is not read: only what the handler needs.
const ownAccountStatement = selectStatement<AccountDtoRow, { accountId: number }>(
  (db) => db.select(accountDtoColumns).from(accounts).where(eq(accounts.id, sql.placeholder("accountId"))).limit(1),
  accountDtoColumns,
);

function buildQueries(db: DbOrTx) {
  const from = <S extends SelectedFields>(columns: S) => db.select(columns).from(sessions).innerJoin(accounts, eq(accounts.id, sessions.accountId));
  return {
    // The viewer and another account as the viewer sees it (GET account/{id}): that account's DTO
    // columns (null when there is none) and the viewer's side of their relation.
    withTarget: from({ ...viewerColumns, target: { ...accountDtoColumnsOf(target), isBlocked: target.isBlocked }, statusCode: friendships.statusCode })
      .leftJoin(target, eq(target.id, sql.placeholder("targetId")))
      .leftJoin(friendships, and(eq(friendships.accountId, sessions.accountId), eq(friendships.friendId, target.id)))
      .where(liveSession)
      .limit(1)
      .prepare("viewer_target"),
    seenAccount: db
      .select({ target: { ...accountDtoColumnsOf(target), isBlocked: target.isBlocked }, statusCode: friendships.statusCode })
      .from(target)
      .leftJoin(friendships, and(eq(friendships.accountId, sql.placeholder("accountId")), eq(friendships.friendId, target.id)))
      .where(eq(target.id, sql.placeholder("targetId")))
      .limit(1)
      .prepare("seen_account"),
  };
}

const target = alias(accounts, "target");

const prepared = new WeakMap<DbOrTx, ReturnType<typeof buildQueries>>();

function queriesFor(db: DbOrTx) {
  let q = prepared.get(db);
  if (!q) {
    q = buildQueries(db);
    prepared.set(db, q);
  }
  return q;
}

type ViewerRow = { id: number; role: Viewer["role"]; isDeleted: boolean; isBlocked: boolean; language: string; sessionExpiresAt: Date };

type Params = { sessionId: string; accountId: number; now: string };

const viewerOf = (claims: AccessClaims, s: Pick<CachedSession, "role" | "isDeleted" | "language">): Viewer => ({
  id: claims.accountId,
  sessionId: claims.sessionId,
  role: s.role,
  isDeleted: s.isDeleted,
  language: s.language,
});

/**
 * The session check: the token's signature and expiry, then the session and its account, from the
 * process's session cache when it holds them (no round trip, docs/adr/0135), else from the database
 * (`run`: the session ⋈ account read, with whatever else the caller needs), whose answer is then cached.
 * `onHit` reads what else the caller needs when the session came from the cache.
 */
async function readViewer<R extends ViewerRow, H>(
  token: string | undefined,
  secret: string,
  cache: SessionCache | undefined,
  run: (params: Params) => Promise<R[]>,
  onHit: (viewer: Viewer) => Promise<H | null>,
): Promise<{ viewer: Viewer; row: R; cached: false } | { viewer: Viewer; hit: H; cached: true } | null> {
  if (!token) return null;
  const claims = await verifyAccessToken(token, secret);
  if (!claims) return null;
  const kept = cache?.get(claims.sessionId, claims.accountId);
  if (kept) {
    const viewer = viewerOf(claims, kept);
    const hit = await onHit(viewer);
    return hit === null ? null : { viewer, hit, cached: true };
  }
  const epoch = cache?.epoch ?? 0;
  // A placeholder is not encoded by its column: the driver takes the timestamp as text.
  const [row] = await run({ sessionId: claims.sessionId, accountId: claims.accountId, now: new Date().toISOString() });
  if (!row || row.isBlocked) return null;
  cache?.put(
    claims.sessionId,
    { accountId: row.id, role: row.role, isDeleted: row.isDeleted, language: row.language, sessionExpiresAt: row.sessionExpiresAt.getTime() },
    epoch,
  );
  return { viewer: viewerOf(claims, row), row, cached: false };
}

const nothingElse = async () => undefined;

/**
 * The signed-in account behind an access token, or null. Checks the signature and expiry, then
 * that the session was not revoked (logout, password change, refresh reuse) and the account exists
 * and is not blocked by the administration.
 */
export async function resolveViewer(db: DbOrTx, token: string | undefined, secret: string, cache = sessionCache()): Promise<Viewer | null> {
  const found = await readViewer(token, secret, cache, (p) => viewerStatement.run(db, p), nothingElse);
  return found?.viewer ?? null;
}

/**
 * The own account row on a session cache hit: the cache's copy (docs/adr/0155), else one primary-key read,
 * kept unless the account was forgotten while it ran.
 */
async function ownAccount(db: DbOrTx, accountId: number, cache: SessionCache | undefined): Promise<AccountDtoRow | null> {
  const kept = cache?.getRow(accountId);
  if (kept) return kept;
  const epoch = cache?.epoch ?? 0;
  const [row] = await ownAccountStatement.run(db, { accountId });
  if (!row) return null;
  cache?.putRow(accountId, row, epoch);
  return row;
}

/**
 * resolveViewer, and the viewer's own account row: read by the same query as the session, or on a session
 * cache hit from the cache's copy of the row (no round trip) or by its primary key.
 */
export async function resolveViewerAccount(
  db: DbOrTx,
  token: string | undefined,
  secret: string,
  cache = sessionCache(),
): Promise<{ viewer: Viewer; account: AccountDtoRow } | null> {
  const found = await readViewer(
    token,
    secret,
    cache,
    (p) => withAccountStatement.run(db, p),
    (viewer) => ownAccount(db, viewer.id, cache),
  );
  if (!found) return null;
  return { viewer: found.viewer, account: found.cached ? found.hit : found.row };
}

/** Another account as the viewer sees it: its DTO columns, its block flag and the viewer's relation to it. */
export type SeenAccount = AccountDtoRow & { isBlocked: boolean; statusCode: (typeof friendships.$inferSelect)["statusCode"] | null };

/** resolveViewer, and the account `accountId` as the viewer sees it (null when there is none), in one query. */
export async function resolveViewerWithAccount(
  db: DbOrTx,
  token: string | undefined,
  secret: string,
  accountId: number,
  cache = sessionCache(),
): Promise<{ viewer: Viewer; account: SeenAccount | null } | null> {
  const found = await readViewer(
    token,
    secret,
    cache,
    (p) => queriesFor(db).withTarget.execute({ ...p, targetId: accountId }),
    async (viewer) => {
      const [row] = await queriesFor(db).seenAccount.execute({ accountId: viewer.id, targetId: accountId });
      return { target: row?.target ?? null, statusCode: row?.statusCode ?? null };
    },
  );
  if (!found) return null;
  const { target: seen, statusCode } = found.cached ? found.hit : found.row;
  return { viewer: found.viewer, account: seen && { ...seen, statusCode } };
}
