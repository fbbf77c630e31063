import { offline as enOffline, app as enApp } from "@/messages/en.json";
import { offline as ruOffline, app as ruApp } from "@/messages/ru.json";
import { localeOf, LOCALE_COOKIE, type Locale } from "@/lib/i18n/config";
import { PWA_COLOURS } from "@/lib/pwa/colours";
import logo from "@/app/icon.svg";

// Only these two namespaces of each catalogue reach the worker: the bundler keeps the named JSON keys.
const TEXTS = { ru: { ...ruOffline, name: ruApp.name }, en: { ...enOffline, name: enApp.name } } as const;

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The page a navigation gets when the network fails: built in the worker from the texts of
 * messages/*.json, so nothing per account is ever stored for it and it needs no request. No script: a
 * "reload" link to the same address tries again.
 */
export function offlinePageHtml(locale: Locale, url: string): string {
  const t = TEXTS[locale];
  const { light, dark } = PWA_COLOURS;
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.title)} · ${escapeHtml(t.name)}</title>
<style>
:root{color-scheme:light dark;--bg:${light.background};--card:${light.theme};--fg:#1a1b1e;--accent:#2a6fd1}
@media (prefers-color-scheme:dark){:root{--bg:${dark.background};--card:${dark.theme};--fg:#e8e9eb;--accent:#5b9bf0}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,sans-serif}
main{max-width:26rem;margin:1rem;padding:2rem;border-radius:12px;background:var(--card);text-align:center}
main svg{width:56px;height:56px}h1{font-size:1.25rem;margin:1rem 0 .5rem}
a{display:inline-block;margin-top:1rem;padding:.5rem 1.25rem;border-radius:8px;background:var(--accent);color:#fff;text-decoration:none}
</style></head>
<body><main>${logo}<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.body)}</p><a href="${escapeHtml(url)}">${escapeHtml(t.retry)}</a></main></body></html>`;
}

/** The reader's language as the app decides it: the saved choice (cookie), else the browser's, else Russian. */
export async function readerLocale(scope: { cookieStore?: { get(name: string): Promise<{ value?: string } | null> }; navigator: { language: string } }): Promise<Locale> {
  const saved = await scope.cookieStore?.get(LOCALE_COOKIE).catch(() => null);
  return localeOf(saved?.value, scope.navigator.language);
}
