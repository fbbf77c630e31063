import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { alias, type SelectedFields } from "drizzle-orm/pg-core";
import { accounts, friendships, sessions } from "@/db/schema";
import { accountDtoColumns, accountDtoColumnsOf, type AccountDtoRow } from "@/lib/server/services/accounts/account-columns";
import { verifyAccessToken } from "./tokens";

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
};

// The session must be the token's, of the token's account, not revoked and not expired.
const liveSession = and(
  eq(sessions.id, sql.placeholder("sessionId")),
  eq(sessions.accountId, sql.placeholder("accountId")),
  isNull(sessions.revokedAt),
  gt(sessions.expiresAt, sql.placeholder("now")),
);

/**
 * The session ⋈ account read behind every signed-in request, as drizzle prepared queries: the SQL is
 * built once per database handle (not on every request) and runs as a cached prepared statement
 * (db/client.ts).
 */
function buildQueries(db: DbOrTx) {
  const from = <S extends SelectedFields>(columns: S) => db.select(columns).from(sessions).innerJoin(accounts, eq(accounts.id, sessions.accountId));
  return {
    viewer: from(viewerColumns).where(liveSession).limit(1).prepare("viewer"),
    // The viewer and its own account's DTO columns in one round trip (GET account/me).
    withAccount: from({ ...accountDtoColumns, ...viewerColumns }).where(liveSession).limit(1).prepare("viewer_account"),
    // The viewer and another account as the viewer sees it (GET account/{id}): that account's DTO
    // columns (null when there is none) and the viewer's side of their relation.
    withTarget: from({ ...viewerColumns, target: { ...accountDtoColumnsOf(target), isBlocked: target.isBlocked }, statusCode: friendships.statusCode })
      .leftJoin(target, eq(target.id, sql.placeholder("targetId")))
      .leftJoin(friendships, and(eq(friendships.accountId, sessions.accountId), eq(friendships.friendId, target.id)))
      .where(liveSession)
      .limit(1)
      .prepare("viewer_target"),
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

type ViewerRow = { id: number; role: Viewer["role"]; isDeleted: boolean; isBlocked: boolean; language: string };

async function readViewer<R extends ViewerRow>(
  token: string | undefined,
  secret: string,
  run: (params: { sessionId: string; accountId: number; now: string }) => Promise<R[]>,
): Promise<{ viewer: Viewer; row: R } | null> {
  if (!token) return null;
  const claims = await verifyAccessToken(token, secret);
  if (!claims) return null;
  // A placeholder is not encoded by its column: the driver takes the timestamp as text.
  const [row] = await run({ sessionId: claims.sessionId, accountId: claims.accountId, now: new Date().toISOString() });
  if (!row || row.isBlocked) return null;
  return { viewer: { id: row.id, sessionId: claims.sessionId, role: row.role, isDeleted: row.isDeleted, language: row.language }, row };
}

/**
 * The signed-in account behind an access token, or null. Checks the signature and expiry, then
 * that the session was not revoked (logout, password change, refresh reuse) and the account exists
 * and is not blocked by the administration.
 */
export async function resolveViewer(db: DbOrTx, token: string | undefined, secret: string): Promise<Viewer | null> {
  const found = await readViewer(token, secret, (p) => queriesFor(db).viewer.execute(p));
  return found?.viewer ?? null;
}

/** resolveViewer, and the viewer's own account row read by the same query (no second round trip). */
export async function resolveViewerAccount(
  db: DbOrTx,
  token: string | undefined,
  secret: string,
): Promise<{ viewer: Viewer; account: AccountDtoRow } | null> {
  const found = await readViewer(token, secret, (p) => queriesFor(db).withAccount.execute(p));
  return found && { viewer: found.viewer, account: found.row };
}

/** Another account as the viewer sees it: its DTO columns, its block flag and the viewer's relation to it. */
export type SeenAccount = AccountDtoRow & { isBlocked: boolean; statusCode: (typeof friendships.$inferSelect)["statusCode"] | null };

/** resolveViewer, and the account `accountId` as the viewer sees it (null when there is none), in one query. */
export async function resolveViewerWithAccount(
  db: DbOrTx,
  token: string | undefined,
  secret: string,
  accountId: number,
): Promise<{ viewer: Viewer; account: SeenAccount | null } | null> {
  const found = await readViewer(token, secret, (p) => queriesFor(db).withTarget.execute({ ...p, targetId: accountId }));
  if (!found) return null;
  const { target: seen, statusCode } = found.row;
  return { viewer: found.viewer, account: seen && { ...seen, statusCode } };
}
