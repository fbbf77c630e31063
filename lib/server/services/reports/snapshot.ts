import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { NotFoundError } from "@/lib/server/http/errors";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { REPORT_ERRORS, REPORT_MESSAGES_BEFORE, type ReportPerson, type ReportSnapshot, type ReportTargetType } from "@/lib/validation/reports";
import { authorNotDeleted, notBlocked, visibleTo } from "../posts/shared";

/** A reported target as the reporter sees it: its author and the snapshot stored with the report. */
export type ReportTarget = { accountId: number; snapshot: ReportSnapshot };

type PersonRow = { pid: string; first_name: string; last_name: string; photo: string | null };
const personOf = (r: PersonRow): ReportPerson => ({ id: Number(r.pid), firstName: r.first_name, lastName: r.last_name, photo: r.photo });
const personColumns = (a: SQL) => sql`${a}.id as pid, ${a}.first_name, ${a}.last_name, ${a}.photo`;
const iso = (column: SQL) => sql`to_json(${column}) #>> '{}'`;

/**
 * Reads the target the reporter may see and copies it (issue 26, docs/adr/0126). Only what the reporter can
 * read is reportable: a post through the feed's visibility rule, a comment of such a post, a message of a
 * dialog the reporter is in, a live account. Anything else is a 404, never a hint that it exists. A post's
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
      snapshot: { kind: "POST", title: r.title, html: sanitizePostHtml(r.post_text), imagePath: r.image_path, author: personOf(r), time: r.time },
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
    const [m] = await tx.execute<{ dialog_id: string; author_id: string; created_at: string }>(sql`
      select m.dialog_id, m.author_id, m.created_at::text as created_at from messages m
      where m.id = ${id} and (m.author_id = ${viewerId} or m.recipient_id = ${viewerId})`);
    if (!m) throw missing();
    const rows = await tx.execute<{ id: string; author_id: string; message_text: string; time: string }>(sql`
      select x.id, x.author_id, x.message_text, x.time from (
        select m.id, m.author_id, m.message_text, ${iso(sql`m.created_at`)} as time, m.created_at
        from messages m
        where m.dialog_id = ${Number(m.dialog_id)} and (m.created_at, m.id) <= (${m.created_at}::timestamptz, ${id})
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
        messages: rows.map((r) => ({ id: Number(r.id), authorId: Number(r.author_id), text: r.message_text, time: r.time, reported: Number(r.id) === id })),
        people: people.map(personOf),
      },
    };
  }
  const [r] = await tx.execute<PersonRow & { about: string | null }>(sql`
    select a.about, ${personColumns(sql`a`)} from accounts a
    where a.id = ${id} and not a.is_deleted and not a.is_blocked`);
  if (!r) throw missing();
  return { accountId: Number(r.pid), snapshot: { kind: "ACCOUNT", person: personOf(r), about: r.about } };
}
