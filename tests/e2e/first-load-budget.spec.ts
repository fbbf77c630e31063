import { gzipSync } from "node:zlib";
import { createUser, expect, signIn, test } from "./fixtures";

// Issue 25 section 3: the first-load JavaScript of the feed and the profile pages may not grow past what
// docs/adr/0151 measured (plus a small margin for an honest feature). Measured as the bench measures it
// (bench/pages.ts): every <script src> of the HTML and every script preload, each fetched and gzipped at the
// default level, the `nomodule` polyfill left out (no browser that runs modules fetches it). Bytes, not
// time: the figure does not depend on the machine's load. A failure names the scripts by size: look for a
// static import that pulled a library or a rarely used module into the page (make it load on intent).

/** KB gzip: ADR 0151's figures (feed 173.2, /profile 176.9; ADR 0143's were 181.0 and 183.7) + about 3 KB. */
const BUDGET_KB: Record<string, number> = {
  "/": 176,
  "/profile": 180,
};

async function firstLoad(request: import("@playwright/test").APIRequestContext, path: string) {
  const res = await request.get(path, { maxRedirects: 0 });
  expect(res.status(), path).toBe(200);
  const html = await res.text();
  const src = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*>/g)) {
    if (/\bnomodule\b/i.test(m[0])) continue;
    const s = /\bsrc="([^"]+)"/.exec(m[0])?.[1];
    if (s) src.add(s.replaceAll("&amp;", "&"));
  }
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    if (!/\bas="script"/.test(m[0])) continue;
    const s = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (s) src.add(s.replaceAll("&amp;", "&"));
  }
  const scripts = await Promise.all(
    [...src].map(async (s) => {
      const body = await (await request.get(s)).body();
      return { src: s, gzip: gzipSync(body).length };
    }),
  );
  scripts.sort((a, b) => b.gzip - a.gzip);
  return { kb: scripts.reduce((sum, s) => sum + s.gzip, 0) / 1024, scripts };
}

test("the feed's and /profile's first-load JavaScript stay within ADR 0143's figures", async ({ page }) => {
  await signIn(page, await createUser());
  for (const [path, budget] of Object.entries(BUDGET_KB)) {
    const { kb, scripts } = await firstLoad(page.request, path);
    expect(scripts.length, path).toBeGreaterThan(0);
    const list = scripts.map((s) => `${(s.gzip / 1024).toFixed(1)} KB ${s.src}`).join("\n");
    expect(kb, `${path}: ${kb.toFixed(1)} KB gzip of first-load JS (budget ${budget} KB):\n${list}`).toBeLessThanOrEqual(budget);
  }
});
