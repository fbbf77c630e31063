import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { catalogueText, escapeHtml } from "@/lib/server/mail/templates";

// The archive's readable pages (issue 40 item 18): one shell and one way of writing times, shared by
// index.html and every dialogs/<id>.html. The pages open from the disk, where a script would run with the
// file's rights: everything from the database is escaped, and the policy allows no script at all.

/** A text of the archive in `locale` (messages/*.json, "dataArchive"), HTML-escaped. */
export function archiveText(locale: Locale) {
  return (key: string, vars?: Record<string, string | number>) => escapeHtml(catalogueText(locale, `dataArchive.${key}`, vars));
}

/** "UTC+03:00", "UTC−05:00", "UTC+00:00": the offset a time had in `zone`. */
export function offsetOf(date: Date, zone: string): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  return name === "GMT" ? "UTC+00:00" : name.replace("GMT", "UTC");
}

/** A time as the person reads it: their zone, their language, and the offset written out. */
export function timeIn(locale: Locale, zone: string) {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: zone });
  return (value: string | Date): string => {
    const date = typeof value === "string" ? new Date(value) : value;
    return `${format.format(date)} (${offsetOf(date, zone)})`;
  };
}

const STYLE = `
:root{color-scheme:light dark;--bg:#eef0f3;--card:#fff;--text:#1f2937;--muted:#5b6472;--line:#e2e5ea;--link:#2f5fb3;--sent:#dbe8fb;--received:#fff;--notice:#fff4d6}
@media (prefers-color-scheme:dark){:root{--bg:#15181d;--card:#1f242b;--text:#e6e8eb;--muted:#a3abb7;--line:#333a44;--link:#9dbcf5;--sent:#23395b;--received:#2a3038;--notice:#3d3420}}
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:0;padding:16px 12px;background:var(--bg);color:var(--text);overflow-wrap:anywhere}
main{max-width:760px;margin:0 auto}
h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.15rem;margin:0 0 12px}
a{color:var(--link)}
.muted{color:var(--muted);font-size:.9rem}
.card{background:var(--card);border-radius:12px;padding:16px;margin:12px 0}
.notice{background:var(--notice)}.notice p{margin:0}
dl{display:grid;grid-template-columns:minmax(96px,max-content) 1fr;gap:6px 16px;margin:0}
dt{color:var(--muted)}dd{margin:0}
ul.list{list-style:none;margin:0;padding:0}
ul.list li{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 12px;padding:10px 0;border-top:1px solid var(--line)}
ul.list li:first-child{border-top:0}
.links{display:flex;gap:12px}
ol.chat{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:8px}
.msg{max-width:85%;padding:8px 12px;border-radius:14px;background:var(--received);border:1px solid var(--line)}
.msg.sent{align-self:flex-end;background:var(--sent)}
.msg p{margin:0;white-space:pre-wrap}
.msg .deleted{font-style:italic;color:var(--muted)}
.msg blockquote{margin:0 0 6px;padding:2px 8px;border-left:3px solid var(--link);color:var(--muted);font-size:.9rem}
.msg img{display:block;max-width:100%;height:auto;border-radius:8px;margin-top:6px}
.msg footer{margin-top:4px;font-size:.8rem;color:var(--muted)}
`;

/** A page's start and end around its body (a dialog's page is streamed between them). */
export function pageShell(locale: Locale, title: string): { head: string; tail: string } {
  const head = `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
`;
  return { head, tail: "\n</main>\n</body>\n</html>\n" };
}

/** A whole page: `lang`, a title, and a body of HTML already escaped. */
export function page(locale: Locale, title: string, body: string): string {
  const { head, tail } = pageShell(locale, title);
  return head + body + tail;
}
