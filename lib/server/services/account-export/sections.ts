import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { Locale } from "@/lib/i18n/config";
import { placeView } from "@/lib/server/geo/places";
import { storedKeyOf } from "@/lib/validation/storage";
import { htmlToText } from "./html-to-text";

/**
 * The readers of one account's data for its archive (docs/adr/0127). Every list is read in keyset pages
 * along an index that matches its ORDER BY (drizzle's `.desc()` indexes are DESC NULLS LAST, so the
 * queries say so: a plain DESC would make Postgres sort the account's whole remainder for every page), so an account with 10,000 posts costs 100 short range scans
 * and never more than one page in memory; the archive writer pulls the next page only when the zip
 * stream wants more bytes.
 */

const PAGE = 200;
const iso = (column: SQL) => sql`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const num = (v: string | number | null) => (v === null ? null : Number(v));

/** Rows of a keyset query, page after page; `next` gives the cursor of a page's last row. */
async function* keyset<R, C>(page: (cursor: C | null) => Promise<R[]>, next: (last: R) => C): AsyncGenerator<R> {
  let cursor: C | null = null;
  for (;;) {
    const rows = await page(cursor);
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    cursor = next(rows[rows.length - 1]);
  }
}

type ProfileRow = Record<string, string | null> & { id: string };

/**
 * The account as its owner sees it in the settings (never the password hash, role or sessions), its
 * country and city by name in the owner's language beside their codes (issue 40 item 18).
 */
export async function readProfile(db: DbOrTx, accountId: number, locale: Locale = "ru") {
  const [a] = await db.execute<ProfileRow>(sql`
    select id, email, first_name, last_name, birth_date::text as birth_date, phone, country_code, country, city_id, city,
           about, emoji_status, photo, profile_cover, language, ${iso(sql`created_at`)} as created_at
    from accounts where id = ${accountId}`);
  if (!a) return null;
  const place = placeView({ countryCode: a.country_code, country: a.country, cityId: num(a.city_id), city: a.city }, locale);
  return {
    id: Number(a.id),
    email: a.email,
    firstName: a.first_name,
    lastName: a.last_name,
    birthDate: a.birth_date,
    phone: a.phone,
    countryCode: a.country_code,
    country: place.country,
    cityId: num(a.city_id),
    city: place.city,
    about: a.about,
    emojiStatus: a.emoji_status,
    photo: archiveImagePath(a.photo),
    profileCover: archiveImagePath(a.profile_cover),
    language: a.language,
    registeredAt: a.created_at,
  };
}

/** Where a stored image lands inside the archive (images/<key>), or null. */
export function archiveImagePath(path: string | null): string | null {
  const key = path ? storedKeyOf(path) : null;
  return key ? `images/${key}` : null;
}

type PostRow = {
  id: string;
  title: string;
  post_text: string;
  image_path: string | null;
  publish_date: string;
  created: string;
  time_changed: string | null;
  queued: boolean;
  is_blocked: boolean;
  like_amount: number;
  comments_count: number;
  reaction_counts: Record<string, number>;
  tags: string[];
  k: string;
};

/** The account's posts (not deleted; scheduled and moderated ones included), newest first: posts_author_feed_idx. */
export async function* postsOf(db: DbOrTx, accountId: number) {
  const rows = keyset<PostRow, { k: string; id: string }>(
    (c) =>
      db.execute<PostRow>(sql`
        select p.id, p.title, p.post_text, p.image_path, ${iso(sql`p.publish_date`)} as publish_date, ${iso(sql`p.time`)} as created,
               ${iso(sql`p.time_changed`)} as time_changed, p.publish_date > now() as queued, p.is_blocked, p.like_amount,
               p.comments_count, p.reaction_counts,
               coalesce((select array_agg(t.name order by t.name) from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = p.id), '{}') as tags,
               p.publish_date::text as k
        from posts p
        where p.author_id = ${accountId} and not p.is_deleted
          ${c ? sql`and (p.publish_date, p.id) < (${c.k}::timestamptz, ${c.id}::bigint)` : sql``}
        order by p.publish_date desc nulls last, p.id desc nulls last
        limit ${PAGE}`),
    (last) => ({ k: last.k, id: last.id }),
  );
  for await (const p of rows) {
    yield {
      id: Number(p.id),
      title: p.title,
      html: p.post_text,
      text: htmlToText(p.post_text),
      image: archiveImagePath(p.image_path),
      tags: p.tags,
      publishDate: p.publish_date,
      time: p.created,
      timeChanged: p.time_changed,
      type: p.queued ? "QUEUED" : "POSTED",
      blockedByModerator: p.is_blocked,
      likeAmount: p.like_amount,
      commentsCount: p.comments_count,
      reactions: p.reaction_counts,
    };
  }
}

/** Keys of the images the account uploaded and still uses: photo, cover, then its posts' images. */
export async function* imageKeysOf(db: DbOrTx, accountId: number): AsyncGenerator<string> {
  const [a] = await db.execute<{ photo: string | null; profile_cover: string | null }>(
    sql`select photo, profile_cover from accounts where id = ${accountId}`,
  );
  const seen = new Set<string>();
  for (const path of [a?.photo ?? null, a?.profile_cover ?? null]) {
    const key = path ? storedKeyOf(path) : null;
    if (key && !seen.has(key)) {
      seen.add(key);
      yield key;
    }
  }
  type Row = { image_path: string; k: string; id: string };
  const rows = keyset<Row, { k: string; id: string }>(
    (c) =>
      db.execute<Row>(sql`
        select p.image_path, p.publish_date::text as k, p.id
        from posts p
        where p.author_id = ${accountId} and not p.is_deleted and p.image_path is not null
          ${c ? sql`and (p.publish_date, p.id) < (${c.k}::timestamptz, ${c.id}::bigint)` : sql``}
        order by p.publish_date desc nulls last, p.id desc nulls last
        limit ${PAGE}`),
    (last) => ({ k: last.k, id: last.id }),
  );
  // Keys seen are kept (about 50 bytes each): two posts may carry one image, and the archive holds it once.
  for await (const r of rows) {
    const key = storedKeyOf(r.image_path);
    if (key && !seen.has(key)) {
      seen.add(key);
      yield key;
    }
  }
}

type CommentRow = {
  id: string;
  post_id: string;
  parent_id: string | null;
  comment_text: string;
  created: string;
  time_changed: string | null;
  is_blocked: boolean;
  like_amount: number;
  k: string;
};

/** The account's comments and replies (not deleted), newest first: comments_author_idx. */
export async function* commentsOf(db: DbOrTx, accountId: number) {
  const rows = keyset<CommentRow, { k: string; id: string }>(
    (c) =>
      db.execute<CommentRow>(sql`
        select c.id, c.post_id, c.parent_id, c.comment_text, ${iso(sql`c.time`)} as created, ${iso(sql`c.time_changed`)} as time_changed,
               c.is_blocked, c.like_amount, c.time::text as k
        from comments c
        where c.author_id = ${accountId} and not c.is_deleted
          ${c ? sql`and (c.time, c.id) < (${c.k}::timestamptz, ${c.id}::bigint)` : sql``}
        order by c.time desc nulls last, c.id desc nulls last
        limit ${PAGE}`),
    (last) => ({ k: last.k, id: last.id }),
  );
  for await (const c of rows) {
    yield {
      id: Number(c.id),
      postId: Number(c.post_id),
      parentId: num(c.parent_id),
      text: c.comment_text,
      time: c.created,
      timeChanged: c.time_changed,
      blockedByModerator: c.is_blocked,
      likeAmount: c.like_amount,
    };
  }
}

/** The reactions the account gave to posts, by post id: post_reactions_account_idx. */
export async function* postReactionsOf(db: DbOrTx, accountId: number) {
  type Row = { post_id: string; reaction_type: string; created: string };
  const rows = keyset<Row, string>(
    (c) =>
      db.execute<Row>(sql`
        select r.post_id, r.reaction_type, ${iso(sql`r.created_at`)} as created
        from post_reactions r
        where r.account_id = ${accountId} ${c ? sql`and r.post_id > ${c}::bigint` : sql``}
        order by r.post_id
        limit ${PAGE}`),
    (last) => last.post_id,
  );
  for await (const r of rows) yield { kind: "POST", postId: Number(r.post_id), commentId: null, reactionType: r.reaction_type, time: r.created };
}

/** The comments the account liked, by comment id: comment_likes_account_idx. */
export async function* commentLikesOf(db: DbOrTx, accountId: number) {
  type Row = { comment_id: string; post_id: string; created: string };
  const rows = keyset<Row, string>(
    (c) =>
      db.execute<Row>(sql`
        select l.comment_id, c.post_id, ${iso(sql`l.created_at`)} as created
        from comment_likes l join comments c on c.id = l.comment_id
        where l.account_id = ${accountId} ${c ? sql`and l.comment_id > ${c}::bigint` : sql``}
        order by l.comment_id
        limit ${PAGE}`),
    (last) => last.comment_id,
  );
  for await (const r of rows) yield { kind: "COMMENT", postId: Number(r.post_id), commentId: Number(r.comment_id), reactionType: "like", time: r.created };
}

/**
 * The account's side of every relation (friends, requests both ways, subscriptions both ways, blocks it
 * made), by the other person's id: the friendships primary key. REJECTING (the other person blocked this
 * account) is their decision, not this account's data, and the friends pages never list it either.
 */
export async function* relationsOf(db: DbOrTx, accountId: number) {
  type Row = { friend_id: string; status_code: string; since: string; first_name: string; last_name: string };
  const rows = keyset<Row, string>(
    (c) =>
      db.execute<Row>(sql`
        select f.friend_id, f.status_code, ${iso(sql`f.updated_at`)} as since, a.first_name, a.last_name
        from friendships f join accounts a on a.id = f.friend_id
        where f.account_id = ${accountId} and f.status_code <> 'REJECTING' ${c ? sql`and f.friend_id > ${c}::bigint` : sql``}
        order by f.friend_id
        limit ${PAGE}`),
    (last) => last.friend_id,
  );
  for await (const r of rows) {
    yield { accountId: Number(r.friend_id), firstName: r.first_name, lastName: r.last_name, statusCode: r.status_code, since: r.since };
  }
}

export type DialogSummary = {
  dialogId: number;
  /** The other person of a personal dialog; null in a group conversation. */
  partner: { id: number; firstName: string; lastName: string } | null;
  /** A group conversation's title (issue 41); null in a personal dialog. */
  title: string | null;
  /** The messages the person sees (a group member's: from joining to leaving). */
  messageCount: number;
};

/** The account's dialogs by id, with the other person's name (or the group's title) as the dialog list shows it. */
export async function* dialogsOf(db: DbOrTx, accountId: number): AsyncGenerator<DialogSummary> {
  type Row = { dialog_id: string; partner_id: string | null; first_name: string | null; last_name: string | null; title: string | null; message_count: number };
  const rows = keyset<Row, string>(
    (c) =>
      db.execute<Row>(sql`
        select m.dialog_id, m.partner_id, a.first_name, a.last_name, d.title,
          case when m.partner_id is null then coalesce(m.until_count, d.message_count) - m.from_count else d.message_count end as message_count
        from dialog_members m join dialogs d on d.id = m.dialog_id left join accounts a on a.id = m.partner_id
        where m.account_id = ${accountId} ${c ? sql`and m.dialog_id > ${c}::bigint` : sql``}
        order by m.dialog_id
        limit ${PAGE}`),
    (last) => last.dialog_id,
  );
  for await (const r of rows) {
    yield {
      dialogId: Number(r.dialog_id),
      partner: r.partner_id === null ? null : { id: Number(r.partner_id), firstName: r.first_name!, lastName: r.last_name! },
      title: r.partner_id === null ? r.title : null,
      messageCount: Number(r.message_count),
    };
  }
}

/** How many chat photos one archive copies (each key once); beyond that the messages still name them (docs/adr/0134). */
export const ARCHIVE_MESSAGE_IMAGES_MAX = 5_000;

/** A message as the archive keeps it (dialogs/<id>.json and its page). */
export type ArchivedMessage = {
  id: number;
  direction: "SENT" | "RECEIVED";
  text: string;
  time: string;
  images: string[];
  /** Set when its author changed the text. */
  editedAt: string | null;
  /** Deleted for everyone by its author: kept as a mark, without text or photos. */
  deleted: boolean;
  deletedAt: string | null;
  /** The message this one answers: its id and the start of its text (null text: it was deleted since). */
  replyTo: { id: number; text: string | null; imageCount: number } | null;
  /** In a group conversation: who wrote it (issue 41). */
  author?: { id: number; firstName: string; lastName: string };
};

/**
 * Every message of one dialog, oldest first (messages_dialog_time_idx read forwards), marked as sent or
 * received, with its photos as their places in the archive (images/<key>), its edit, its deletion for
 * everyone and the message it answers (issue 40 item 18); photo keys are added to `imageKeys` (up to
 * ARCHIVE_MESSAGE_IMAGES_MAX) for the archive to copy the files.
 */
export async function* messagesOf(db: DbOrTx, accountId: number, dialogId: number, imageKeys?: Set<string>): AsyncGenerator<ArchivedMessage> {
  type Row = {
    id: string;
    author_id: string;
    message_text: string;
    created: string;
    k: string;
    images: string[] | null;
    edited: string | null;
    deleted: string | null;
    reply_id: string | null;
    reply_text: string | null;
    reply_images: number | null;
    first_name: string | null;
    last_name: string | null;
    group: boolean;
  };
  const rows = keyset<Row, { k: string; id: string }>(
    (c) =>
      db.execute<Row>(sql`
        select m.id, m.author_id, m.message_text, ${iso(sql`m.created_at`)} as created, m.created_at::text as k, m.images,
               ${iso(sql`m.edited_at`)} as edited, ${iso(sql`m.deleted_at`)} as deleted, m.reply_to_id as reply_id,
               case when q.deleted_at is null then left(q.message_text, ${REPLY_EXCERPT}) end as reply_text,
               coalesce(cardinality(q.images), 0) as reply_images,
               m.recipient_id is null as group, au.first_name, au.last_name
        from messages m
        -- What the person sees of a group: from joining to leaving, without the event lines (issue 41).
        join dialog_members w on w.dialog_id = m.dialog_id and w.account_id = ${accountId}
          and m.id > w.from_message_id and (w.left_message_id is null or m.id <= w.left_message_id)
        left join messages q on q.id = m.reply_to_id and q.dialog_id = m.dialog_id
        left join accounts au on m.recipient_id is null and au.id = m.author_id
        where m.dialog_id = ${dialogId} and m.event is null ${c ? sql`and (m.created_at, m.id) > (${c.k}::timestamptz, ${c.id}::bigint)` : sql``}
        order by m.created_at asc nulls first, m.id asc nulls first
        limit ${PAGE}`),
    (last) => ({ k: last.k, id: last.id }),
  );
  for await (const m of rows) {
    const images = (m.images ?? []).map((p) => {
      const key = storedKeyOf(p);
      if (key && imageKeys && imageKeys.size < ARCHIVE_MESSAGE_IMAGES_MAX) imageKeys.add(key);
      return archiveImagePath(p) ?? p;
    });
    yield {
      id: Number(m.id),
      direction: Number(m.author_id) === accountId ? "SENT" : "RECEIVED",
      text: m.message_text,
      time: m.created,
      images,
      editedAt: m.edited,
      deleted: m.deleted !== null,
      deletedAt: m.deleted,
      replyTo: m.reply_id === null ? null : { id: Number(m.reply_id), text: m.reply_text, imageCount: Number(m.reply_images ?? 0) },
      ...(m.group ? { author: { id: Number(m.author_id), firstName: m.first_name ?? "", lastName: m.last_name ?? "" } } : {}),
    };
  }
}

/** How much of an answered message's text a reply keeps. */
const REPLY_EXCERPT = 120;
