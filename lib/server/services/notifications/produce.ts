import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { notifyAppended, recipientArray } from "@/lib/server/events/outbox";
import type { NotificationDetails, NotificationType } from "@/lib/validation/notifications-shared";

/**
 * The one producer of notifications (issue 12, ADR 0070, ADR 0095). Every cause calls `notify` inside
 * its own transaction; one statement then
 *  - picks the recipients that still qualify at this moment: live account, its switch for the type on
 *    (a missing settings row means the defaults), not the actor, no block either way with the actor;
 *  - inserts their rows set-based (a POST to 5,000 friends is one INSERT … SELECT from the friend
 *    index), or bumps the unread row of the same group (likes / comments on one post, messages of one
 *    dialog);
 *  - and appends their outbox events (no lock, ADR 32), `NOTIFICATION` with the row exactly as the list
 *    returns it: one event per row, or one shared event for a fan-out of alike rows.
 * Rolling the caller back rolls all of it back.
 */

/** The settings column that switches a type on or off; null: always on (spec: LIKE, SEND_EMAIL_MESSAGE). */
const SWITCH: Record<NotificationType, string | null> = {
  POST: "enable_post",
  POST_COMMENT: "enable_post_comment",
  COMMENT_COMMENT: "enable_comment_comment",
  FRIEND_REQUEST: "enable_friend_request",
  FRIEND_APPROVE: "enable_friend_request",
  FRIEND_SUBSCRIBE: "enable_friend_request",
  FRIEND_BLOCKED: "enable_friend_request",
  FRIEND_UNBLOCKED: "enable_friend_request",
  MESSAGE: "enable_message",
  FRIEND_BIRTHDAY: "enable_friend_birthday",
  USER_BIRTHDAY: "enable_friend_birthday",
  LIKE: null,
  SEND_EMAIL_MESSAGE: null,
  REPORT_RESOLVED: "enable_report_resolved",
  // The person asked for the archive (docs/adr/0127): always told.
  EXPORT_READY: null,
  // Issue 27: someone shared my post.
  REPOST: "enable_repost",
  // Issue 40: a moderator blocked the person's post or comment: always told, with the reason.
  CONTENT_BLOCKED: null,
  // Issue 41: someone added me to a group conversation.
  GROUP_ADDED: "enable_group_added",
  // Issue 42: communities — requests to join one I run, my request accepted, invitations, and new posts
  // of the communities whose posts I asked to hear of.
  COMMUNITY_REQUEST: "enable_community_request",
  COMMUNITY_ACCEPTED: "enable_community_accepted",
  COMMUNITY_INVITATION: "enable_community_invitation",
  COMMUNITY_POST: "enable_community_post",
};

export type NotifyInput = {
  type: NotificationType;
  /** Who caused it: never notified, and nobody with a block towards them is. null: the system. */
  actorId: number | null;
  /** Whom the entry shows (defaults to the actor). */
  authorId?: number | null;
  /**
   * The entry shows no person (authorId null) yet stays the actor's for blocks: a block between the actor and
   * the receiver later removes it (forgetBetween reads actor_ids). A post signed by a community is its writer's.
   */
  actorBehind?: boolean;
  /**
   * Account ids, or a set-based fan-out to the actor's own relations of the given statuses (a POST to
   * friends and subscribers). Such a relation excludes a block either way: a pair has one relation, and
   * a block replaces it (friends/transitions.ts#LEGAL_PAIRS), so the fan-out needs no block check.
   */
  recipients: number[] | { actorRelations: readonly ("FRIEND" | "WATCHING")[] } | CommunityFanOut;
  postId?: number | null;
  commentId?: number | null;
  dialogId?: number | null;
  /** Issue 42: the community a COMMUNITY_* entry is about. */
  communityId?: number | null;
  content?: string;
  /** What a moderation notice is about (REPORT_RESOLVED, CONTENT_BLOCKED): shown as data.details. */
  details?: NotificationDetails | null;
  /** Unread entries of one receiver with the same key become one (grouping). */
  groupKey?: string | null;
  /**
   * With a group key: while the receiver's entry of that key is unread, a repeat changes nothing and
   * sends nothing (one person subscribing again and again is no news; ADR 0109).
   */
  repeatIsNoNews?: boolean;
};

/**
 * Issue 42: a set-based fan-out to the members of `communityId` who asked to hear of its posts
 * (community_members.notify_posts), at most `limit` of them (the earliest to join first).
 */
export type CommunityFanOut = { communityMembers: number; limit: number };

const isCommunityFanOut = (r: NotifyInput["recipients"]): r is CommunityFanOut => !Array.isArray(r) && "communityMembers" in r;

const CONTENT_MAX = 200;

/** Plain-text excerpt of user text (HTML tags dropped, whitespace folded, at most `max`, by default 200, characters). */
export function excerpt(text: string, max = CONTENT_MAX): string {
  const plain = text
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/** A moderation notice's quote of its item (issue 40): enough to recognise it in one line. */
export const QUOTE_MAX = 60;

const person = (a: SQL) =>
  sql`jsonb_build_object('id', ${a}.id, 'firstName', ${a}.first_name, 'lastName', ${a}.last_name, 'photo', ${a}.photo)`;

/**
 * The kind of target a notification leads to that is gone: its comment or post deleted (two primary-key
 * probes), or, for one about a person alone, their account deleted; null while it is there.
 */
function goneJson(n: SQL, au: SQL): SQL {
  return sql`case
    when ${n}.comment_id is not null and not exists (select 1 from comments gc where gc.id = ${n}.comment_id and not gc.is_deleted) then 'COMMENT'
    when ${n}.post_id is not null and not exists (select 1 from posts gp where gp.id = ${n}.post_id and not gp.is_deleted) then 'POST'
    when ${n}.community_id is not null and ${n}.post_id is null and ${n}.notification_type <> 'CONTENT_BLOCKED' and not exists (select 1 from communities gm where gm.id = ${n}.community_id and not gm.is_deleted and not gm.is_blocked) then 'COMMUNITY'
    when ${n}.post_id is null and ${n}.dialog_id is null and ${n}.community_id is null and ${n}.author_id is not null and (${au}.id is null or ${au}.is_deleted) then 'ACCOUNT'
  end`;
}

/**
 * The NotificationDto of row `n` as JSON, with its author `au` (left-joined, null when missing). The
 * list and the live frame both use it, so they cannot drift apart. A deleted author shows as none.
 */
export function notificationJson(n: SQL, au: SQL): SQL {
  return sql`jsonb_build_object(
    'id', ${n}.id,
    'notificationType', ${n}.notification_type,
    'sentTime', to_char(${n}.sent_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'content', ${n}.content,
    'isRead', ${n}.is_read,
    'data', jsonb_build_object(
      -- The original client reads these from data (issue 29 §3, docs/adr/0142): repeated, additive.
      'id', ${n}.id,
      'notificationType', ${n}.notification_type,
      'content', ${n}.content,
      'sentTime', to_char(${n}.sent_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'authorId', ${n}.author_id,
      'receiverId', ${n}.receiver_id,
      'author', case when ${au}.id is null or ${au}.is_deleted then null else ${person(au)} end,
      'postId', ${n}.post_id,
      'commentId', ${n}.comment_id,
      'dialogId', ${n}.dialog_id,
      -- What it is about no longer exists (issue 27, docs/adr/0132): the bell says so instead of a link to a 404.
      'gone', ${goneJson(n, au)},
      -- A friend request still waiting for an answer: the bell offers to accept or decline it right there.
      'requestPending', ${n}.notification_type = 'FRIEND_REQUEST' and coalesce(not ${au}.is_deleted, false) and exists (select 1 from friendships rp
        where rp.account_id = ${n}.receiver_id and rp.friend_id = ${n}.author_id and rp.status_code = 'REQUEST_FROM'),
      'count', ${n}.group_count,
      'authors', case when ${n}.group_count > 1 then coalesce((
        select jsonb_agg(${person(sql`x`)} order by o.ord)
        from unnest(${n}.actor_ids[1:3]) with ordinality o(aid, ord)
        join accounts x on x.id = o.aid and not x.is_deleted), '[]'::jsonb)
      else case when ${au}.id is null or ${au}.is_deleted then '[]'::jsonb else jsonb_build_array(${person(au)}) end end)
      -- A moderation notice's item (issue 40): only on the rows that have one, so no other frame grows.
      || case when ${n}.details is null then '{}'::jsonb else jsonb_build_object('details', ${n}.details) end
      -- A community's entry (issue 42): its id, and its name and photo now (a primary-key probe), on those rows only.
      || case when ${n}.community_id is null then '{}'::jsonb else jsonb_build_object('communityId', ${n}.community_id, 'community', (
        select jsonb_build_object('id', nc.id, 'name', nc.name, 'photo', nc.photo) from communities nc where nc.id = ${n}.community_id)) end)`;
}

/**
 * The candidates of one cause as a one-column query (`rid`), with the checks they need: explicit ids
 * must name a live account other than the actor, with no block either way; the actor's relations are
 * live accounts by their foreign key and unblocked by construction, so only the few deleted accounts
 * are taken out (an anti-join against accounts_deleted_idx, not a probe per friend).
 */
function candidates(input: NotifyInput): SQL {
  const actor = input.actorId;
  if (isCommunityFanOut(input.recipients)) {
    // Issue 42: members only (a closed or private community's post reaches no one else), live, not the
    // author, no block either way (one probe: a block is a BLOCKED or REJECTING row on each side), along
    // community_members_status_idx in join order, stopped at the cap.
    if (actor === null) throw new Error("a community fan-out needs its actor");
    const { communityMembers, limit } = input.recipients;
    return sql`select m.account_id as rid from community_members m
      where m.community_id = ${communityMembers} and m.status = 'MEMBER' and m.notify_posts and m.account_id <> ${actor}
        and not exists (select 1 from accounts d where d.id = m.account_id and d.is_deleted)
        and not exists (select 1 from friendships b
          where b.account_id = m.account_id and b.friend_id = ${actor} and b.status_code in ('BLOCKED', 'REJECTING'))
      order by m.since, m.account_id
      limit ${sql.raw(String(Math.max(0, Math.trunc(limit))))}`;
  }
  // People of other servers (accounts.remote, issue 43) never read a bell here: they get no entries (a post of
  // someone with 10,000 remote followers wrote 10,000 rows nobody could read; docs/adr/0175).
  if (!Array.isArray(input.recipients)) {
    if (actor === null) throw new Error("a relation fan-out needs its actor");
    return sql`select f.friend_id as rid from friendships f
      where f.account_id = ${actor} and f.status_code = any(${`{${input.recipients.actorRelations.join(",")}}`}::friend_status[])
        and not exists (select 1 from accounts d where d.id = f.friend_id and (d.is_deleted or d.remote))`;
  }
  // One recipient is a scalar: an array parameter is estimated at 10 rows in a generic plan, which then
  // looks dearer than a custom one, and a statement run often (a chat message) would be planned each time.
  const ids =
    input.recipients.length === 1 && Number.isSafeInteger(input.recipients[0]) && input.recipients[0] > 0
      ? sql`select ${input.recipients[0]}::bigint as rid`
      : sql`select unnest(${recipientArray(input.recipients)}::bigint[]) as rid`;
  return sql`select w.rid from (${ids}) w
    join accounts a on a.id = w.rid and not a.is_deleted and not a.remote
    where ${
      actor === null
        ? sql`true`
        : sql`w.rid <> ${actor} and not exists (
            select 1 from friendships b
            where b.account_id = w.rid and b.friend_id = ${actor} and b.status_code in ('BLOCKED', 'REJECTING'))`
    }`;
}

/**
 * The parts of one cause's write, for a statement that also writes other things (a chat message and
 * its notification are one statement, services/dialogs/messages.ts):
 *  - `cte`: `<name> as (insert … returning n.*)`, the rows written or bumped;
 *  - `events`: a SELECT of (type, payload, recipients, subjects) rows for `insert into events`, reading
 *    `<name>`.
 * `onlyIf` is a condition of the whole write (the message was stored): false, nothing is written.
 */
export function notificationWrite(input: NotifyInput, name: string, onlyIf: SQL = sql`true`): { cte: SQL; events: SQL } {
  const actor = input.actorId;
  const author = input.authorId === undefined ? actor : input.authorId;
  const behind = author ?? (input.actorBehind ? actor : null);
  const column = SWITCH[input.type];
  const groupKey = input.groupKey ?? null;
  const rows = sql.identifier(name);
  // A switch turned off is the exception: an anti-join against those rows (a partial index for the
  // fan-out types keeps it to them), never a probe per recipient.
  const switchOn = column
    ? sql`not exists (select 1 from notification_settings s where s.account_id = c.rid and not s.${sql.raw(column)})`
    : sql`true`;
  const insert = sql`
    insert into notifications as n
      (receiver_id, author_id, notification_type, post_id, comment_id, dialog_id, community_id, content, details, group_key, actor_ids)
    select c.rid, ${author}::bigint, ${input.type}::notification_type, ${input.postId ?? null}::bigint,
           ${input.commentId ?? null}::bigint, ${input.dialogId ?? null}::bigint, ${input.communityId ?? null}::bigint, ${input.content ?? ""},
           ${input.details ? JSON.stringify(input.details) : null}::jsonb, ${groupKey}::text,
           case when ${behind}::bigint is null then '{}'::bigint[] else array[${behind}::bigint] end
    from (${candidates(input)}) c
    where ${switchOn} and ${onlyIf}`;
  // Grouped rows bump the receiver's unread entry of the group; rows without a key are a plain insert
  // (no speculative insertion per row).
  const upsert =
    groupKey === null
      ? insert
      : input.repeatIsNoNews
        ? sql`${insert}
    on conflict (receiver_id, group_key) where not is_read and group_key is not null do nothing`
        : sql`${insert}
    on conflict (receiver_id, group_key) where not is_read and group_key is not null do update set
      author_id = excluded.author_id,
      group_count = n.group_count + case when excluded.author_id = any(n.actor_ids) then 0 else 1 end,
      actor_ids = (excluded.actor_ids || array_remove(n.actor_ids, excluded.author_id))[1:50],
      post_id = excluded.post_id,
      comment_id = excluded.comment_id,
      dialog_id = excluded.dialog_id,
      community_id = excluded.community_id,
      content = excluded.content,
      sent_time = now()`;
  // Rows freshly inserted for a fan-out without grouping (a POST to 5,000 friends) are alike except for
  // their id and receiver: one shared event carries one of them as the list returns it and names each
  // recipient's own row (`subjects`, parallel to `recipients`: one aggregate pass fills both), which the
  // readers put back into the frame (outbox.ts#personalise). Grouped rows may have been bumped and
  // differ: one event each, in row order.
  const shared = groupKey === null && (!Array.isArray(input.recipients) || input.recipients.length > 1);
  // A live NOTIFICATION carries `timestamp` (the spec: "sentTime (from timestamp on live arrival)"), the same
  // instant as sentTime (issue 29 §3).
  const frame = sql`${notificationJson(sql`i`, sql`au`)} || jsonb_build_object('timestamp', to_char(i.sent_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  const events = shared
    ? sql`select 'NOTIFICATION',
             (select ${frame} from ${rows} i left join accounts au on au.id = i.author_id limit 1),
             array_agg(w.receiver_id), array_agg(w.id)
           from ${rows} w having count(*) > 0`
    : sql`select 'NOTIFICATION', ${frame}, array[i.receiver_id], null::bigint[]
           from ${rows} i left join accounts au on au.id = i.author_id
           order by i.id`;
  return { cte: sql`${rows} as (${upsert} returning n.*)`, events };
}

/**
 * Writes the notifications of one cause and their NOTIFICATION events in one statement; returns how
 * many rows were written or bumped. Nothing crosses the wire per recipient: a fan-out to 5,000 is one
 * round trip in, one count out.
 */
export async function notify(tx: Tx, input: NotifyInput): Promise<number> {
  const { cte, events } = notificationWrite(input, "ins");
  const [row] = await tx.execute<{ n: number }>(sql`
    with ${cte},
    ev as (insert into events (type, payload, recipients, subjects) ${events})
    select count(*)::int as n from ins`);
  const written = Number(row?.n ?? 0);
  if (written > 0) await notifyAppended(tx);
  return written;
}

/**
 * Removes what two people notified each other of (a block): nothing of one may stay in the other's
 * list. An entry of that person alone goes. A grouped entry ("Анна и ещё 4 …") that others share
 * stays for them: the person leaves its people and its count wherever they are in it, and where they
 * were the newest, the next person becomes its author and a comment group shows that person's newest
 * comment there instead of the blocked person's text.
 */
export async function forgetBetween(tx: Tx, a: number, b: number): Promise<void> {
  for (const [receiver, gone] of [
    [a, b],
    [b, a],
  ]) {
    const shared = await tx.execute<{ id: string; rest: string[]; was_newest: boolean; comment_group: boolean; comment_id: string | null; text: string | null }>(sql`
      select n.id, sh.rest, sh.was_newest, n.notification_type in ('POST_COMMENT', 'COMMENT_COMMENT') as comment_group,
             c.id as comment_id, c.comment_text as text
      from notifications n
      cross join lateral (select array_remove(n.actor_ids, ${gone}::bigint) as rest, n.author_id = ${gone} as was_newest) sh
      left join lateral (
        select c.id, c.comment_text from comments c
        where sh.was_newest and n.notification_type in ('POST_COMMENT', 'COMMENT_COMMENT')
          and c.post_id = n.post_id and c.author_id = sh.rest[1] and not c.is_deleted
        order by c.id desc limit 1) c on true
      where n.receiver_id = ${receiver} and n.group_key is not null and ${gone}::bigint = any(n.actor_ids)
        and cardinality(sh.rest) > 0`);
    for (const r of shared) {
      // Where the blocked person was the newest of a comment group, their text and comment go too.
      const comment = r.was_newest && r.comment_group ? sql`, comment_id = ${r.comment_id}::bigint, content = ${r.text === null ? "" : excerpt(r.text)}` : sql``;
      await tx.execute(sql`
        update notifications set
          actor_ids = ${`{${r.rest.join(",")}}`}::bigint[],
          group_count = greatest(group_count - 1, 1),
          author_id = ${r.was_newest ? sql`${r.rest[0]}::bigint` : sql`author_id`} ${comment}
        where id = ${r.id}`);
    }
    await tx.execute(sql`
      delete from notifications
      where receiver_id = ${receiver} and (author_id = ${gone} or ${gone}::bigint = any(actor_ids))`);
  }
}
