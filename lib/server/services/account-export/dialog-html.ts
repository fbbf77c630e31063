import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { escapeHtml } from "@/lib/server/mail/templates";
import { archiveText, pageShell, timeIn } from "./html-page";
import type { ArchivedMessage, DialogSummary } from "./sections";

/**
 * dialogs/<id>.html: one dialog as a person reads it (issue 40 item 18), streamed a message at a time
 * beside its JSON: sent on the right, received on the left, each with its time in the person's zone and
 * offset, "edited", the message it answers, its photos — and a message deleted for everyone as a
 * "deleted" mark, never as an empty message.
 */
export async function* dialogPage(input: { locale: Locale; zone: string; dialog: DialogSummary; messages: AsyncIterable<ArchivedMessage> }): AsyncGenerator<Buffer> {
  const { locale } = input;
  const t = archiveText(locale);
  const time = timeIn(locale, input.zone);
  const d = input.dialog;
  const name = d.partner ? `${d.partner.firstName} ${d.partner.lastName}`.trim() : (d.title ?? "");
  const partner = escapeHtml(name);
  // A group conversation's page is called by its title; each received message says who wrote it.
  const title = d.partner ? t("dialogTitle", { name }) : t("groupTitle", { name });
  const { head, tail } = pageShell(locale, title);
  yield Buffer.from(
    `${head}<p><a href="../index.html">${t("back")}</a></p>\n<h1>${title}</h1>\n<p class="muted">${t("dialogAbout", { zone: input.zone })}</p>\n<ol class="chat">\n`,
  );
  let any = false;
  for await (const m of input.messages) {
    any = true;
    const who = m.direction === "SENT" ? t("you") : m.author ? escapeHtml(`${m.author.firstName} ${m.author.lastName}`.trim()) : partner;
    const parts: string[] = [];
    if (m.replyTo) {
      const quoted = m.replyTo.text === null ? t("replyToDeleted") : m.replyTo.text || t("photos", { count: m.replyTo.imageCount });
      parts.push(`<blockquote><a href="#m${m.replyTo.id}">${t("inReplyTo")}</a> ${escapeHtml(quoted)}</blockquote>`);
    }
    if (m.deleted) parts.push(`<p class="deleted">${t("deletedForEveryone")}</p>`);
    else {
      if (m.text) parts.push(`<p>${escapeHtml(m.text)}</p>`);
      for (const [i, img] of m.images.entries()) {
        parts.push(`<img src="../${escapeHtml(img)}" alt="${t("photoAlt", { n: i + 1, count: m.images.length })}" loading="lazy">`);
      }
    }
    const edited = m.editedAt && !m.deleted ? ` · ${t("edited", { time: time(m.editedAt) })}` : "";
    const deleted = m.deletedAt ? ` · ${t("deletedAt", { time: time(m.deletedAt) })}` : "";
    const cls = m.direction === "SENT" ? "msg sent" : "msg";
    yield Buffer.from(`<li class="${cls}" id="m${m.id}">${parts.join("")}<footer>${who} · <time datetime="${m.time}">${time(m.time)}</time>${edited}${deleted}</footer></li>\n`);
  }
  yield Buffer.from(`</ol>\n${any ? "" : `<p class="muted">${t("noMessages")}</p>\n`}${tail}`);
}
