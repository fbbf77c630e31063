import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientImportChains, MEASURED_PAGES, ROOT, staticImportChains } from "../support/client-namespaces-scan";

// Issue 25 section 3: zod (about 30 KB gzip) is loaded by the pages that validate a form, on the first
// keystroke (docs/adr/0103), never by the pages whose first load is measured. The chat's and the posts'
// numbers live in zod-free `*-shared.ts` modules for that; one client import of a constant from a module
// that imports zod brings the whole library back (the dialog carried it until 27 Nov: 209.8 → 183.7 KB).
// Server components may import zod freely: only modules below a "use client" boundary reach the browser.

const { "/search": _search, ...PAGES } = MEASURED_PAGES;

/** Every chain of static imports from the entries to `zod` that runs in the browser. */
function clientZodChains(entries: string[]): string[] {
  return clientImportChains(entries, (spec) => spec === "zod" || spec.startsWith("zod/"));
}

describe("zod stays out of the measured pages' first load", () => {
  it.each(Object.keys(PAGES))("%s: no client module imports zod statically", (page) => {
    expect(clientZodChains(PAGES[page])).toEqual([]);
  });

  it("sees a client import of a zod module (the check bites)", () => {
    expect(clientZodChains(["components/friends/find-form.tsx"]).some((c) => c.endsWith("lib/validation/friends.ts → zod"))).toBe(true);
  });

  it("does not follow client code into a module of server functions", () => {
    // components/post/use-post-pages.ts calls readCardPage ("use server"), which checks its input with zod on the server.
    // The list (client) reaches the action statically, and the action's input schema imports zod …
    expect(staticImportChains(["components/post/post-list.tsx"], (spec) => spec.endsWith("card-pages-action")).length).toBeGreaterThan(0);
    expect(readFileSync(path.join(ROOT, "lib/validation/post-source.ts"), "utf8")).toMatch(/from "zod"/);
    // … yet none of that is the browser's.
    expect(clientZodChains(["components/post/post-list.tsx"])).toEqual([]);
  });

  it("does not count a server component's zod", () => {
    expect(clientZodChains(["app/api/v1/dialogs/route.ts"])).toEqual([]);
  });
});
