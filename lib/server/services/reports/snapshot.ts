import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { NotFoundError } from "@/lib/server/http/errors";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { REPORT_ERRORS, REPORT_MESSAGES_BEFORE, type ReportPerson, type ReportSnapshot, type ReportTargetType } from "@/lib/validation/reports";
import { authorNotDeleted, notBlocked, visibleTo } from "../posts/shared";
import { readCommunityRow, visible } from "../communities/access";

/** A reported target as the reporter sees it: its author and the snapshot stored with the report. */
export type ReportTarget = { accountId: number; snapshot: ReportSnapshot };

type PersonRow = { pid: string; first_name: string; last_name: string; photo: string | null };
const personOf = (r: PersonRow): ReportPerson => ({ id: Number(r.pid), firstName: r.first_name, lastName: r.last_name, photo: r.photo });
const personColumns = (a: SQL) => sql`${a}.id as pid, ${a}.first_name, ${a}.last_name, ${a}.photo`;
const iso = (column: SQL) => sql`to_json(${column}) #>> '{}'`;

/**
 * Reads the target the reporter may see and copies it (issue 26, docs/adr/0126). Only what the reporter can
 * read is reportable: a post through the feed's visibility rule, a comment of such a post, a message of a
 * dialog the reporter is in, a live account, a community the reporter sees (issue 42: the rule of
 * communities/access.ts — a private one is absent to a non-member). Anything else is a 404, never a hint that it exists. A post's
 * HTML goes through the one sanitiser (lib/validation/post-html.ts), as when it is rendered.
 */
export async function readReportTarget(tx: Tx, viewerId: number, type: ReportTargetType, id: number): Promise<ReportTarget> {
  const missing = () => new NotFoundError(REPORT_ERRORS.notFound);
  if (type === "POST") {
    const [r] = await tx.execute<PersonRow & { title: string; post_text: string; image_path: string | null; time: string }>(sql`
      select p.title, p.post_text, p.image_path, ${iso(sql`p.publish_date`)} as time, ${personColumns(sql`a`)}
      from posts p join accounts a on a.id = p.author_id
      where p.id = ${id} and ${visibleTo(viewerId)}`);
    if (!r) throw missing();
    return {
      accountId: Number(r.pid),
      snapshot: {
        kind: "POST", title: r.title, html: sanitizePostHtml(r.post_text), imagePath: r.image_path, author: personOf(r), time: r.time,
        images: r.image_path ? [r.image_path] : [],
      },
    };
  }
  if (type === "COMMENT") {
    const [r] = await tx.execute<PersonRow & { post_id: string; comment_text: string; time: string }>(sql`
      select c.post_id, c.comment_text, ${iso(sql`c.time`)} as time, ${personColumns(sql`a`)}
      from comments c join posts p on p.id = c.post_id join accounts a on a.id = c.author_id
      where c.id = ${id} and not c.is_deleted and (not c.is_blocked or c.author_id = ${viewerId})
        and ${visibleTo(viewerId)} and ${authorNotDeleted(sql`c.author_id`)} and ${notBlocked(viewerId, sql`c.author_id`)}`);
    if (!r) throw missing();
    return {
      accountId: Number(r.pid),
      snapshot: { kind: "COMMENT", postId: Number(r.post_id), text: r.comment_text, author: personOf(r), time: r.time },
    };
  }
  if (type === "MESSAGE") {
    // The message, if the reporter is one of its dialog's two people; then it and up to five messages
    // before it in that dialog (messages_dialog_time_idx, read backwards from the reported one).
    // In a group conversation (issue 41): a member who sees it (from joining to leaving); the context only
    // from what they see too. An event line is nobody's words and cannot be reported.
    const [m] = await tx.execute<{ dialog_id: string; author_id: string; created_at: string; from_id: string }>(sql`
      select m.dialog_id, m.author_id, m.created_at::text as created_at, coalesce(w.from_message_id, 0) as from_id from messages m
      left join dialog_members w on m.recipient_id is null and w.dialog_id = m.dialog_id and w.account_id = ${viewerId}
      where m.id = ${id} and m.event is null
        and (m.author_id = ${viewerId} or m.recipient_id = ${viewerId}
             or (w.account_id is not null and m.id > w.from_message_id and (w.left_message_id is null or m.id <= w.left_message_id)))`);
    if (!m) throw missing();
    const rows = await tx.execute<{ id: string; author_id: string; message_text: string; time: string; images: string[] | null }>(sql`
      select x.id, x.author_id, x.message_text, x.time, x.images from (
        select m.id, m.author_id, m.message_text, ${iso(sql`m.created_at`)} as time, m.created_at, m.images
        from messages m
        where m.dialog_id = ${Number(m.dialog_id)} and (m.created_at, m.id) <= (${m.created_at}::timestamptz, ${id}) and m.id > ${Number(m.from_id)} and m.event is null
        order by m.created_at desc, m.id desc
        limit ${REPORT_MESSAGES_BEFORE + 1}) x
      order by x.created_at, x.id`);
    const ids = [...new Set(rows.map((r) => Number(r.author_id)))];
    const people = await tx.execute<PersonRow>(sql`
      select ${personColumns(sql`a`)} from accounts a where a.id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
    return {
      accountId: Number(m.author_id),
      snapshot: {
        kind: "MESSAGE",
        dialogId: Number(m.dialog_id),
        // The reported message's photos as stored (keepEvidence copies them); the earlier ones' only counted.
        messages: rows.map((r) => {
          const reported = Number(r.id) === id;
          const images = r.images ?? [];
          return { id: Number(r.id), authorId: Number(r.author_id), text: r.message_text, time: r.time, reported, imageCount: images.length, ...(reported ? { images } : {}) };
        }),
        people: people.map(personOf),
      },
    };
  }
  if (type === "COMMUNITY") {
    // Its "account" is the owner: the person answerable for it (BLOCK_AUTHOR blocks them).
    const c = await readCommunityRow(tx, viewerId, id);
    if (!c || !visible(c, viewerId) || c.is_deleted) throw missing();
    const [owner] = await tx.execute<PersonRow>(sql`select ${personColumns(sql`a`)} from accounts a where a.id = ${Number(c.owner_id)}`);
    if (!owner) throw missing();
    return {
      accountId: Number(owner.pid),
      snapshot: {
        kind: "COMMUNITY", name: c.name, description: c.description, photo: c.photo, cover: c.cover, type: c.type,
        owner: personOf(owner), membersCount: c.members_count, images: [c.photo, c.cover].filter((p): p is string => p !== null),
      },
    };
  }
  const [r] = await tx.execute<PersonRow & { about: string | null }>(sql`
    select a.about, ${personColumns(sql`a`)} from accounts a
    where a.id = ${id} and not a.is_deleted and not a.is_blocked`);
  if (!r) throw missing();
  return { accountId: Number(r.pid), snapshot: { kind: "ACCOUNT", person: personOf(r), about: r.about, images: r.photo ? [r.photo] : [] } };
}
