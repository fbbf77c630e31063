import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import type { NotificationDetails } from "@/lib/validation/notifications-shared";
import type { ReportAction, ReportSnapshot } from "@/lib/validation/reports";
import { excerpt, notify, QUOTE_MAX } from "../notifications/produce";

/**
 * The item a report was about, as its notice names it (issue 40, docs/adr/0164): a post's title, a comment's or
 * the reported message's start (empty for a message of photos only), a profile's or a community's name — from the group's
 * first snapshot, what the queue showed the moderator.
 */
export function reportedItem(s: ReportSnapshot): NotificationDetails {
  if (s.kind === "POST") return { targetType: "POST", excerpt: excerpt(s.title, QUOTE_MAX) };
  if (s.kind === "COMMENT") return { targetType: "COMMENT", excerpt: excerpt(s.text, QUOTE_MAX) };
  if (s.kind === "COMMUNITY") return { targetType: "COMMUNITY", excerpt: excerpt(s.name, QUOTE_MAX) };
  if (s.kind === "ACCOUNT") return { targetType: "ACCOUNT", excerpt: excerpt(`${s.person.firstName} ${s.person.lastName}`, QUOTE_MAX) };
  const reported = s.messages.find((m) => m.reported) ?? s.messages[s.messages.length - 1];
  return { targetType: "MESSAGE", excerpt: excerpt(reported?.text ?? "", QUOTE_MAX) };
}

/**
 * Tells every reporter of group `groupId` what became of it, naming the item (REPORT_RESOLVED, content = the
 * action; their switch permitting), in the resolving transaction. One notice per reporter and group: the
 * reporters are unique in a group (reports_group_reporter_key).
 */
export async function tellReporters(tx: Tx, groupId: number, action: ReportAction): Promise<void> {
  const [row] = await tx.execute<{ snapshot: ReportSnapshot | null; reporters: string[] }>(sql`
    select (select r.snapshot from reports r where r.group_id = ${groupId} order by r.id limit 1) as snapshot,
           array(select r.reporter_id from reports r where r.group_id = ${groupId}) as reporters`);
  if (!row?.snapshot || row.reporters.length === 0) return;
  await notify(tx, {
    type: "REPORT_RESOLVED",
    actorId: null,
    recipients: row.reporters.map(Number),
    content: action,
    details: reportedItem(row.snapshot),
  });
}
