import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { catalogueText, escapeHtml } from "@/lib/server/mail/templates";
import type { DialogSummary } from "./sections";

export type ArchiveCounts = {
  posts: number;
  comments: number;
  reactions: number;
  relations: number;
  dialogs: number;
  messages: number;
  images: number;
  missingImages: number;
};

/**
 * index.html of the archive: a small page in the owner's language that names every section with its
 * count and links its file. Everything from the database is escaped (names, the partner of a dialog):
 * the page opens from the disk, where a script would run with the file's rights.
 */
export function renderArchiveIndex(input: {
  locale: Locale;
  profile: { firstName: string; lastName: string };
  counts: ArchiveCounts;
  dialogs: (DialogSummary & { file: string })[];
  madeAt: Date;
}): string {
  const { locale, counts } = input;
  const t = (key: string, vars?: Record<string, string | number>) => escapeHtml(catalogueText(locale, `dataArchive.${key}`, vars));
  const n = (v: number) => new Intl.NumberFormat(locale).format(v);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(input.madeAt);
  const link = (file: string) => `<a href="${escapeHtml(file)}">${escapeHtml(file)}</a>`;
  const row = (label: string, file: string | null, count: string) =>
    `<tr><td>${label}</td><td>${file ? link(file) : ""}</td><td class="n">${count}</td></tr>`;
  const imagesCount = n(counts.images) + (counts.missingImages > 0 ? ` <small>${t("missingImages", { count: counts.missingImages })}</small>` : "");
  const rows = [
    row(t("profile"), "profile.json", ""),
    row(t("posts"), "posts.json", n(counts.posts)),
    row(t("comments"), "comments.json", n(counts.comments)),
    row(t("reactions"), "reactions.json", n(counts.reactions)),
    row(t("relations"), "friends.json", n(counts.relations)),
    row(t("dialogs"), "dialogs.json", `${n(counts.dialogs)} / ${n(counts.messages)}`),
    row(t("notificationSettings"), "notification-settings.json", ""),
    row(t("privacySettings"), "privacy-settings.json", ""),
    row(t("images"), "images/", imagesCount),
  ].join("\n");
  const dialogRows = input.dialogs
    .map((d) => `<tr><td>${escapeHtml(`${d.partner.firstName} ${d.partner.lastName}`.trim())}</td><td>${link(d.file)}</td><td class="n">${n(d.messageCount)}</td></tr>`)
    .join("\n");
  const more = counts.dialogs > input.dialogs.length ? `<p>${t("moreDialogs", { count: counts.dialogs - input.dialogs.length })}</p>` : "";
  const name = `${input.profile.firstName} ${input.profile.lastName}`.trim();
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'">
<title>${t("title")}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Arial,sans-serif;margin:0;padding:24px;background:#f3f4f6;color:#1f2937;line-height:1.5}
main{max-width:760px;margin:0 auto;background:#fff;border-radius:12px;padding:24px}
table{border-collapse:collapse;width:100%;margin:16px 0}
th,td{text-align:left;padding:8px;border-bottom:1px solid #e5e7eb;vertical-align:top}
.n{text-align:right;white-space:nowrap}
a{color:#2f5fb3}
@media (prefers-color-scheme:dark){body{background:#111827;color:#e5e7eb}main{background:#1f2937}th,td{border-color:#374151}a{color:#93b4f5}}
</style>
</head>
<body>
<main>
<h1>${t("title")}</h1>
<p>${t("intro", { name, date })}</p>
<table>
<thead><tr><th>${t("section")}</th><th>${t("file")}</th><th class="n">${t("count")}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>${t("dialogsHeading")}</h2>
<p>${t("aboutDialogs")}</p>
<table>
<thead><tr><th>${t("partner")}</th><th>${t("file")}</th><th class="n">${t("messages")}</th></tr></thead>
<tbody>
${dialogRows}
</tbody>
</table>
${more}
</main>
</body>
</html>
`;
}
