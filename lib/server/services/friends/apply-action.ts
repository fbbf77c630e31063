import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { shiftPairComments } from "@/lib/server/services/comments/comments";
import { notifyFriendAction } from "@/lib/server/services/notifications/producers";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import {
  FRIEND_ERRORS,
  friendTargetInput,
  type FriendEventData,
  type FriendSide,
  type FriendStatus,
  type FriendTargetInput,
} from "@/lib/validation/friends";
import { PRIVACY_ERRORS, type FriendRequestsFrom } from "@/lib/validation/privacy";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { mayRequestFriendship } from "../privacy/access";
import { syncPair } from "../posts/home-timeline";
import { isLegalPair, transition, type FriendAction, type Refusal, type Side } from "./transitions";
import { syncFediverseRelation } from "@/lib/server/federation/outbox";
import { remoteAmong } from "@/lib/server/federation/remote";

type StoredSide = { id: number; statusCode: FriendStatus; previousStatusCode: FriendStatus | null };
type Person = { id: number; firstName: string; lastName: string; photo: string | null; isDeleted: boolean; friendRequestsFrom: FriendRequestsFrom };

/**
 * Every writer of a pair takes this transaction-scoped lock first, keyed on the ordered pair, so two
 * opposite actions (A asks B while B asks A, A blocks B while B approves A) run one after the other and
 * the second sees what the first committed (READ COMMITTED: each statement after the lock sees it).
 * One lock per transaction, so lock order cannot deadlock; it also covers the "no row yet" case that
 * SELECT … FOR UPDATE cannot. A hash collision only serialises two unrelated pairs for a moment.
 */
async function lockPair(tx: Tx, a: number, b: number): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`krug:friendship:${low}:${high}`}, 0))`);
}

async function readPeople(tx: Tx, me: number, them: number): Promise<Map<number, Person>> {
  const rows = await tx.execute<{ id: string; first_name: string; last_name: string; photo: string | null; is_deleted: boolean; friend_requests_from: FriendRequestsFrom }>(sql`
    select id, first_name, last_name, photo, is_deleted, friend_requests_from from accounts where id in (${me}, ${them})`);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), firstName: r.first_name, lastName: r.last_name, photo: r.photo, isDeleted: r.is_deleted, friendRequestsFrom: r.friend_requests_from },
    ]),
  );
}

async function readSides(tx: Tx, me: number, them: number): Promise<{ mine?: StoredSide; theirs?: StoredSide }> {
  const rows = await tx.execute<{ id: string; account_id: string; status_code: FriendStatus; previous_status_code: FriendStatus | null }>(sql`
    select id, account_id, status_code, previous_status_code from friendships
    where (account_id = ${me} and friend_id = ${them}) or (account_id = ${them} and friend_id = ${me})`);
  const out: { mine?: StoredSide; theirs?: StoredSide } = {};
  for (const r of rows) {
    const side = { id: Number(r.id), statusCode: r.status_code, previousStatusCode: r.previous_status_code };
    if (Number(r.account_id) === me) out.mine = side;
    else out.theirs = side;
  }
  return out;
}

/** Stores one side's new code; previousStatusCode keeps the code it replaced (null for a new row). */
async function writeSide(tx: Tx, owner: number, other: number, old: StoredSide | undefined, next: Side): Promise<FriendSide> {
  if (next === null) {
    if (old) await tx.execute(sql`delete from friendships where account_id = ${owner} and friend_id = ${other}`);
    return { id: null, friendId: other, statusCode: null, previousStatusCode: old?.statusCode ?? null };
  }
  if (old?.statusCode === next) return { id: old.id, friendId: other, statusCode: next, previousStatusCode: old.previousStatusCode };
  const rows = old
    ? await tx.execute<{ id: string }>(sql`
        update friendships set status_code = ${next}, previous_status_code = ${old.statusCode}, updated_at = now()
        where account_id = ${owner} and friend_id = ${other} returning id`)
    : await tx.execute<{ id: string }>(sql`
        insert into friendships (account_id, friend_id, status_code) values (${owner}, ${other}, ${next}) returning id`);
  return { id: Number(rows[0].id), friendId: other, statusCode: next, previousStatusCode: old?.statusCode ?? null };
}

const isBlock = (side: Side) => side === "BLOCKED" || side === "REJECTING";

/** The pair's dialog (if there is one) records whether a block stands between the two. */
async function markDialogBlocked(tx: Tx, a: number, b: number, blocked: boolean): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await tx.execute(sql`update dialogs set blocked = ${blocked} where account_low = ${low} and account_high = ${high}`);
}

function refusalError(r: Refusal) {
  if (r.code === "forbidden") return new ForbiddenError(r.message);
  if (r.code === "not_found") return new NotFoundError(r.message);
  return new ConflictError(r.message);
}

/**
 * Runs one friend action of the viewer towards account `input.id`: both sides change in one
 * transaction under the pair lock, and an event for the other account is the transaction's last write.
 * Refusals throw before anything is written. Returns the viewer's new side.
 */
export async function applyFriendAction({
  ctx,
  input,
  action,
}: {
  ctx: ServiceCtx;
  input: FriendTargetInput;
  action: FriendAction;
}): Promise<FriendSide> {
  const viewer = requireViewer(ctx);
  const { id: target } = friendTargetInput.parse(input);
  if (viewer.isDeleted) throw new ForbiddenError(FRIEND_ERRORS.viewerDeleted);
  if (target === viewer.id) throw new BadRequestError(FRIEND_ERRORS.self);

  return withTransaction(ctx, async (tx) => {
    await lockPair(tx, viewer.id, target);
    const people = await readPeople(tx, viewer.id, target);
    const me = people.get(viewer.id);
    const them = people.get(target);
    if (!me) throw new ForbiddenError(FRIEND_ERRORS.viewerDeleted);
    if (!them || them.isDeleted) throw new NotFoundError(FRIEND_ERRORS.accountNotFound);

    const { mine, theirs } = await readSides(tx, viewer.id, target);
    const before: [Side, Side] = [mine?.statusCode ?? null, theirs?.statusCode ?? null];
    // Only a write outside this module could break the mirror; refuse to build on it rather than guess.
    if (!isLegalPair(...before)) throw new Error(`friendship ${viewer.id}/${target} is inconsistent: ${before.join("/")}`);

    const remote = await remoteAmong(tx, [viewer.id, target]);
    const outcome = transition(before[0], before[1], action, remote.size > 0);
    if (!outcome.ok) throw refusalError(outcome);
    // A new request must be one their privacy takes (docs/adr/0125); answering their request always is.
    if (outcome.event === "FRIEND_REQUEST" && !(await mayRequestFriendship(tx, viewer.id, them))) {
      throw new ForbiddenError(PRIVACY_ERRORS.friendRequestsFriendsOfFriends);
    }

    // A follow across servers is said to the fediverse in this transaction (issue 43); refused (403) before
    // any write when a local person without their own actor would follow a remote one.
    await syncFediverseRelation(tx, viewer.id, target, before, [outcome.mine, outcome.theirs], remote);
    // A block's start or end reaches the pair's dialog first, before anything else of the action: a
    // message send waits for this row and re-checks it (docs/adr/0097), so none slips in after the block.
    const blockedAfter = isBlock(outcome.mine) || isBlock(outcome.theirs);
    if (blockedAfter !== (isBlock(before[0]) || isBlock(before[1]))) {
      await markDialogBlocked(tx, viewer.id, target, blockedAfter);
      // Their comments on each other's posts leave the posts and the counts, or come back (docs/adr/0116).
      await shiftPairComments(tx, viewer.id, target, blockedAfter ? -1 : 1);
    }
    const mySide = await writeSide(tx, viewer.id, target, mine, outcome.mine);
    await writeSide(tx, target, viewer.id, theirs, outcome.theirs);
    // Each one's home timeline gets the other's posts or loses them, in this transaction (docs/adr/0137).
    if (outcome.mine !== before[0] || outcome.theirs !== before[1]) {
      await syncPair(tx, viewer.id, target);
      await syncPair(tx, target, viewer.id);
    }
    const data: FriendEventData = {
      authorId: me.id,
      receiverId: target,
      author: { id: me.id, firstName: me.firstName, lastName: me.lastName, photo: me.photo },
      statusCode: outcome.theirs,
      previousStatusCode: before[1],
    };
    await appendEvent(tx, { type: outcome.event, recipients: [target], data });
    await notifyFriendAction(tx, { event: outcome.event, actorId: me.id, targetId: target });
    return mySide;
  });
}
