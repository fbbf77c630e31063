import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { escapeHtml } from "@/lib/server/mail/templates";
import { humanBytes } from "@/lib/server/backup/summary";
import { archiveText, page, timeIn } from "./html-page";
import type { DialogSummary, readProfile } from "./sections";

export type ArchiveCounts = {
  posts: number;
  comments: number;
  reactions: number;
  relations: number;
  dialogs: number;
  messages: number;
  images: number;
  missingImages: number;
  /** Photos left out because the archive reached ARCHIVE_MAX_BYTES (named in images-not-copied.json). */
  imagesNotCopied: number;
};

type Profile = NonNullable<Awaited<ReturnType<typeof readProfile>>>;

/**
 * index.html of the archive (issue 40 item 18): a page a person reads on a phone or a desktop, in their
 * language — who the archive is of, the profile as they filled it (country and city by name), every
 * section with its count and its file, and the dialogs, each linked to its readable page. Times are in
 * the person's time zone, the offset written out. Everything from the database is escaped.
 */
export function renderArchiveIndex(input: {
  locale: Locale;
  zone: string;
  profile: Profile;
  counts: ArchiveCounts;
  dialogs: (DialogSummary & { file: string; page: string })[];
  madeAt: Date;
  notCopiedFile: string;
  /** The archive's limit (ARCHIVE_MAX_BYTES), named when photos were left out. */
  maxBytes: number;
}): string {
  const { locale, counts, profile: p } = input;
  const t = archiveText(locale);
  const n = (v: number) => new Intl.NumberFormat(locale).format(v);
  const time = timeIn(locale, input.zone);
  const link = (file: string, label = file) => `<a href="${escapeHtml(file)}">${escapeHtml(label)}</a>`;
  const name = `${p.firstName ?? ""} ${p.lastName ?? ""}`.trim();

  const fields: [string, string | null][] = [
    [t("fieldName"), name],
    [t("fieldEmail"), p.email],
    [t("fieldPhone"), p.phone],
    [t("fieldBirthDate"), p.birthDate ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${p.birthDate}T00:00:00Z`)) : null],
    [t("fieldCountry"), p.country],
    [t("fieldCity"), p.city],
    [t("fieldAbout"), p.about],
    [t("fieldRegistered"), p.registeredAt ? time(p.registeredAt) : null],
  ];
  const profile = fields
    .filter(([, v]) => v)
    .map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v!)}</dd>`)
    .join("");

  const section = (label: string, file: string, count: string) => `<li><span>${label}</span><span class="links">${count ? `<span class="muted">${count}</span>` : ""}${link(file)}</span></li>`;
  const sections = [
    section(t("profile"), "profile.json", ""),
    section(t("posts"), "posts.json", n(counts.posts)),
    section(t("comments"), "comments.json", n(counts.comments)),
    section(t("reactions"), "reactions.json", n(counts.reactions)),
    section(t("relations"), "friends.json", n(counts.relations)),
    section(t("dialogs"), "dialogs.json", `${n(counts.dialogs)} / ${n(counts.messages)}`),
    section(t("notificationSettings"), "notification-settings.json", ""),
    section(t("privacySettings"), "privacy-settings.json", ""),
    section(t("images"), "images/", n(counts.images)),
  ].join("\n");

  const notices: string[] = [];
  if (counts.imagesNotCopied > 0) {
    notices.push(t("imagesNotCopied", { count: counts.imagesNotCopied, limit: humanBytes(input.maxBytes) }) + ` ${link(input.notCopiedFile)}`);
  }
  if (counts.missingImages > 0) notices.push(t("missingImages", { count: counts.missingImages }));

  const dialogRows = input.dialogs
    .map((d) => {
      const who = escapeHtml(d.partner ? `${d.partner.firstName} ${d.partner.lastName}`.trim() : (d.title ?? ""));
      return `<li><a href="${escapeHtml(d.page)}">${who}</a><span class="links"><span class="muted">${t("messageCount", { count: d.messageCount })}</span>${link(d.file, "JSON")}</span></li>`;
    })
    .join("\n");
  const more = counts.dialogs > input.dialogs.length ? `<p class="muted">${t("moreDialogs", { count: counts.dialogs - input.dialogs.length })}</p>` : "";

  const body = `<h1>${t("title")}</h1>
<p class="muted">${t("intro", { name, date: time(input.madeAt) })}</p>
${notices.map((x) => `<div class="card notice" role="note"><p>${x}</p></div>`).join("\n")}
<section class="card"><h2>${t("profile")}</h2><dl>${profile}</dl></section>
<section class="card"><h2>${t("dialogsHeading")}</h2>
<p class="muted">${t("aboutDialogs")}</p>
${counts.dialogs === 0 ? `<p>${t("noDialogs")}</p>` : `<ul class="list">\n${dialogRows}\n</ul>`}
${more}</section>
<section class="card"><h2>${t("filesHeading")}</h2>
<p class="muted">${t("aboutFiles", { zone: input.zone })}</p>
<ul class="list">
${sections}
</ul></section>`;
  return page(locale, t("title"), body);
}
