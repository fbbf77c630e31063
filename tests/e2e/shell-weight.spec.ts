import { createUser, expect, signIn, test } from "./fixtures";

// Issue 14 item 11: a page loads only the fonts it uses (one: the sans face), and pages that validate
// nothing do not download zod. The face is declared, not preloaded: its 70 KB would compete with the first
// paint on a phone, and the text paints in the metric-matched fallback until it arrives (docs/adr/0154).
// The HTML, the stylesheets and the scripts are read as the browser gets them.

/** The page's font preloads, the font files its stylesheets declare, and the text of every script it loads. */
async function weightOf(request: import("@playwright/test").APIRequestContext, path: string) {
  const res = await request.get(path);
  const html = await res.text();
  // Next puts preloads in the HTML head and may repeat them as a Link header: count distinct font files.
  const tags = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]).filter((tag) => /rel="preload"/.test(tag) && /as="font"/.test(tag));
  const fromTags = tags.map((tag) => /href="([^"]+)"/.exec(tag)?.[1] ?? tag);
  const fromHeader = (res.headers()["link"] ?? "")
    .split(/,\s*(?=<)/)
    .filter((part) => /rel=preload/.test(part) && /as="?font/.test(part))
    .map((part) => /<([^>]+)>/.exec(part)?.[1] ?? part);
  const fontPreloads = [...new Set([...fromTags, ...fromHeader])];
  const sheets = [...new Set([...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]))];
  const css = (await Promise.all(sheets.map(async (href) => (await request.get(href)).text()))).join("\n");
  const fontFiles = [...new Set([...css.matchAll(/@font-face\s*\{[^}]*url\(([^)]+\.woff2)\)/g)].map((m) => m[1]))];
  const scripts = [...new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]))];
  const bodies = await Promise.all(scripts.map(async (src) => (await request.get(src)).text()));
  return { fontPreloads, fontFiles, scripts, zod: scripts.filter((_, i) => bodies[i].includes("ZodError")) };
}

test("pages declare one font and preload none, and those that validate nothing ship no zod", async ({ page }) => {
  await signIn(page, await createUser());
  for (const path of ["/calculator", "/friends", "/profile", "/search?tab=people&query=a"]) {
    const w = await weightOf(page.request, path);
    expect(w.scripts.length, path).toBeGreaterThan(0);
    expect(w.fontPreloads, path).toEqual([]);
    expect(w.fontFiles, path).toHaveLength(1);
    expect(w.zod, `${path} loads zod`).toEqual([]);
  }
  // The check is real: a page with a form does load zod.
  const settings = await weightOf(page.request, "/settings");
  expect(settings.zod.length).toBeGreaterThan(0);
});
