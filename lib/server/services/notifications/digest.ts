import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { isLocale, type Locale } from "@/lib/i18n/config";
import { translate } from "@/lib/server/http/translate";
import { log } from "@/lib/server/log";
import { sendMail, type Mail } from "@/lib/server/mail/send";
import { ONLINE_WINDOW_SECONDS } from "@/lib/server/services/accounts/presence";
import { appUrl } from "@/lib/server/services/auth/links";

/** At most one digest mail per account in this window (issue 12). */
export const DIGEST_INTERVAL_MINUTES = 15;

function text(locale: Locale, key: string, vars: Record<string, string | number>): string {
  return translate(locale, `notifications.digest.${key}`).replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

function digestMail(to: string, language: string, firstName: string, count: number): Mail {
  const locale: Locale = isLocale(language) ? language : "ru";
  const href = appUrl("/push");
  const subject = text(locale, "subject", { count });
  const lines = [text(locale, "greeting", { name: firstName }), "", text(locale, "intro", { count }), "", `${text(locale, "action", {})}: ${href}`, "", text(locale, "footer", {})];
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${esc(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif">` +
    `<p>${esc(lines[0])}</p><p>${esc(lines[2])}</p><p><a href="${esc(href)}">${esc(text(locale, "action", {}))}</a></p><p style="color:#666666">${esc(lines[6])}</p></body></html>`;
  return { to, subject, text: lines.join("\n"), html, links: [href] };
}

/**
 * The digest job (every 5 minutes): each account with enableSendEmailMessage on, no open socket (not
 * seen by the sidecar within the online window) and unread notifications newer than its last digest
 * gets one mail with their count, unless it was mailed within the last 15 minutes. The account's
 * digest row is claimed first (a conditional upsert), so overlapping runs mail once. Returns how many
 * mails went out.
 */
export async function sendNotificationDigests(db: Db, now: Date = new Date()): Promise<number> {
  const at = now.toISOString();
  const due = await db.execute<{ id: string; email: string; first_name: string; language: string; unread: string; last_id: string }>(sql`
    select a.id, a.email, a.first_name, a.language, count(n.id) as unread, max(n.id) as last_id
    from notification_settings s
    join accounts a on a.id = s.account_id and not a.is_deleted
    left join notification_digests d on d.account_id = a.id
    join notifications n on n.receiver_id = a.id and not n.is_read and n.id > coalesce(d.last_notification_id, 0)
    where s.enable_send_email_message
      and (a.last_online_time is null or a.last_online_time < ${at}::timestamptz - make_interval(secs => ${ONLINE_WINDOW_SECONDS}))
      and (d.last_sent_at is null or d.last_sent_at <= ${at}::timestamptz - make_interval(mins => ${DIGEST_INTERVAL_MINUTES}))
    group by a.id, a.email, a.first_name, a.language
    limit 1000`);
  let sent = 0;
  for (const row of due) {
    const claimed = await db.execute(sql`
      insert into notification_digests as d (account_id, last_sent_at, last_notification_id)
      values (${row.id}, ${at}::timestamptz, ${row.last_id})
      on conflict (account_id) do update set last_sent_at = excluded.last_sent_at, last_notification_id = excluded.last_notification_id
      where d.last_sent_at <= ${at}::timestamptz - make_interval(mins => ${DIGEST_INTERVAL_MINUTES})
      returning d.account_id`);
    if (claimed.length === 0) continue;
    try {
      await sendMail(digestMail(row.email, row.language, row.first_name, Number(row.unread)));
      sent += 1;
    } catch (err) {
      log.error({ err, accountId: Number(row.id) }, "notification digest mail failed");
    }
  }
  return sent;
}
