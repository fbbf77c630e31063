import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts, friendships } from "@/db/schema";
import { env } from "@/lib/server/env";
import { ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { accountIdParams } from "@/lib/validation/account";
import type { SeenAccount } from "@/lib/server/auth/viewer";
import { requireViewer, type ServiceCtx } from "../context";
import { mayRequestFriendship } from "../privacy/access";
import { accountDtoSelection, fediverseAddressOf, toAccountDto, viewerFriendshipJoin, type AccountDto, type AccountDtoRow } from "./account-dto";

const publicHost = () => new URL(env().PUBLIC_URL).host;

/** The read below as a drizzle prepared query: its SQL built once per database handle, not per request. */
function buildAccountQuery(db: DbOrTx) {
  return db
    .select({ ...accountDtoSelection, isBlocked: accounts.isBlocked })
    .from(accounts)
    .leftJoin(friendships, viewerFriendshipJoin(sql.placeholder("viewerId")))
    .where(eq(accounts.id, sql.placeholder("accountId")))
    .limit(1)
    .prepare("account_for");
}

const prepared = new WeakMap<DbOrTx, ReturnType<typeof buildAccountQuery>>();

/** One account with the viewer's side of the relation, or null. */
export async function readAccountFor(db: DbOrTx, viewerId: number, accountId: number) {
  let query = prepared.get(db);
  if (!query) {
    query = buildAccountQuery(db);
    prepared.set(db, query);
  }
  const [row] = await query.execute({ viewerId, accountId });
  return row ?? null;
}

/**
 * GET account/me — the viewer's own account, with e-mail and the restore window. `own` is the row
 * when the caller already read it with the viewer (resolveViewerAccount): then no query is made.
 */
export async function getMyAccount({ ctx, own }: { ctx: ServiceCtx; own?: AccountDtoRow }): Promise<AccountDto> {
  const viewer = requireViewer(ctx);
  const row = own ?? (await readAccountFor(ctx.tx ?? ctx.db, viewer.id, viewer.id));
  if (!row) throw new NotFoundError("accountErrors.notFound");
  return { ...toAccountDto(row, { viewerId: viewer.id, locale: ctx.locale }), fediverseAddress: fediverseAddressOf(row, publicHost()) };
}

/**
 * GET account/{id} — another account as the viewer sees it; a deleted or unknown one is 404. `seen` is
 * that account when the caller already read it with the viewer (resolveViewerWithAccount): then no
 * query is made.
 */
export async function getAccount({ ctx, input, seen }: { ctx: ServiceCtx; input: unknown; seen?: { row: SeenAccount | null } }): Promise<AccountDto> {
  const viewer = requireViewer(ctx);
  const parsed = accountIdParams.safeParse(input);
  if (!parsed.success) throw new NotFoundError("accountErrors.notFound");
  const { id } = parsed.data;
  // A deleted account sees only itself until it is restored.
  if (viewer.isDeleted && id !== viewer.id) throw new ForbiddenError("accountErrors.accountDeleted");
  const row = seen ? (seen.row?.id === id ? seen.row : null) : await readAccountFor(ctx.tx ?? ctx.db, viewer.id, id);
  if (!row || (row.isDeleted && id !== viewer.id)) throw new NotFoundError("accountErrors.notFound");
  // An account blocked by the administration is gone for everyone but staff.
  if (row.isBlocked && id !== viewer.id && viewer.role === "USER") throw new NotFoundError("accountErrors.notFound");
  const dto = toAccountDto(row, { viewerId: viewer.id, locale: ctx.locale });
  // Whether the profile may offer "add friend" (docs/adr/0125): a query only when the account limits it.
  if (id !== viewer.id) dto.canRequestFriend = await mayRequestFriendship(ctx.tx ?? ctx.db, viewer.id, row);
  // Blocked by the administration: no actor, so no address (staff still open the page).
  dto.fediverseAddress = row.isBlocked ? null : fediverseAddressOf(row, publicHost());
  // A person of another server (issue 43): their own address, and their page there. Local accounts that do
  // not federate read one primary-key probe more.
  if (dto.fediverseAddress === null && !row.isBlocked) {
    const [remote] = await (ctx.tx ?? ctx.db).execute<{
      handle: string;
      url: string | null;
      uri: string;
      followers_count: number | null;
      following_count: number | null;
      posts_count: number | null;
    }>(sql`select handle, url, uri, followers_count, following_count, posts_count from remote_actors where account_id = ${id}`);
    if (remote) {
      dto.fediverseAddress = remote.handle;
      dto.remoteUrl = remote.url ?? remote.uri;
      dto.remoteCounts = { followers: remote.followers_count, following: remote.following_count, posts: remote.posts_count };
      // No messages go to another server, not even to a mutual follower (docs/adr/0180); no friend requests.
      dto.canMessage = false;
      dto.canRequestFriend = false;
    }
  }
  return dto;
}
