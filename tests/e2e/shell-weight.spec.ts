import { createUser, expect, signIn, test } from "./fixtures";

// Issue 14 item 11: a page loads only the fonts it uses (one: the sans face), and pages that validate
// nothing do not download zod. The face is Geist cut to Krug's characters (44 KB, not the package's 70 KB),
// and it is the one font preloaded (docs/adr/0156). The HTML, the stylesheets and the scripts are read as
// the browser gets them.

/** The page's font preloads, the font files its stylesheets declare (with their sizes), and the text of every script it loads. */
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
  const fontPreloads = [...new Set([...fromTags, ...fromHeader].map((href) => new URL(href, "http://krug.invalid").pathname))];
  const sheets = [...new Set([...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]))];
  // A face's url() is relative to its stylesheet: resolved to the path the browser fetches.
  const faces = await Promise.all(
    sheets.map(async (href) => {
      const css = await (await request.get(href)).text();
      return [...css.matchAll(/@font-face\s*\{[^}]*url\(([^)]+\.woff2)\)/g)].map((m) => new URL(m[1], new URL(href, "http://krug.invalid")).pathname);
    }),
  );
  const fontFiles = [...new Set(faces.flat())];
  const fontBytes = await Promise.all(fontFiles.map(async (href) => (await (await request.get(href)).body()).length));
  const scripts = [...new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]))];
  const bodies = await Promise.all(scripts.map(async (src) => (await request.get(src)).text()));
  return { fontPreloads, fontFiles, fontBytes, scripts, zod: scripts.filter((_, i) => bodies[i].includes("ZodError")) };
}

test("pages declare one font, the Geist subset, and preload it; those that validate nothing ship no zod", async ({ page }) => {
  await signIn(page, await createUser());
  for (const path of ["/calculator", "/friends", "/profile", "/search?tab=people&query=a"]) {
    const w = await weightOf(page.request, path);
    expect(w.scripts.length, path).toBeGreaterThan(0);
    expect(w.fontFiles, path).toHaveLength(1);
    expect(w.fontPreloads, path).toEqual(w.fontFiles);
    expect(w.fontBytes[0], path).toBeLessThan(50_000);
    expect(w.zod, `${path} loads zod`).toEqual([]);
  }
  // The check is real: a page with a form does load zod.
  const settings = await weightOf(page.request, "/settings");
  expect(settings.zod.length).toBeGreaterThan(0);
});
