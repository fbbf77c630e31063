import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectFile, ROOT, staticImportChains, staticImportSpecs, USE_SERVER } from "../support/client-namespaces-scan";

// Issue 25 section 3: zod (about 30 KB gzip) is loaded by the pages that validate a form, on the first
// keystroke (docs/adr/0103), never by the pages whose first load is measured. The chat's and the posts'
// numbers live in zod-free `*-shared.ts` modules for that; one client import of a constant from a module
// that imports zod brings the whole library back (the dialog carried it until 27 Nov: 209.8 → 183.7 KB).
// Server components may import zod freely: only modules below a "use client" boundary reach the browser.

const PAGES: Record<string, string[]> = {
  feed: ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/page.tsx"],
  "/profile": ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/profile/page.tsx"],
  dialog: ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/im/[activeDialogId]/page.tsx"],
  "/login": ["app/layout.tsx", "app/(form)/layout.tsx", "app/(form)/login/page.tsx"],
};

const USE_CLIENT = /^(?:\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*["']use client["']/;

/** Every chain of static imports from the entries to `zod` that runs in the browser. */
function clientZodChains(entries: string[]): string[] {
  const chains: string[] = [];
  const seen = new Set<string>();
  const queue = entries.map((entry) => ({ file: path.join(ROOT, entry), chain: [entry], client: false }));
  while (queue.length > 0) {
    const { file, chain, client: above } = queue.shift()!;
    const source = readFileSync(file, "utf8");
    // Server functions imported by client code stay on the server: only their references reach the browser.
    if (above && USE_SERVER.test(source)) continue;
    const client = above || USE_CLIENT.test(source);
    const key = `${client}:${file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const spec of staticImportSpecs(source)) {
      if (client && (spec === "zod" || spec.startsWith("zod/"))) chains.push([...chain, spec].join(" → "));
      const dep = projectFile(file, spec);
      if (dep && !dep.endsWith(".css")) queue.push({ file: dep, chain: [...chain, path.relative(ROOT, dep)], client });
    }
  }
  return chains;
}

describe("zod stays out of the measured pages' first load", () => {
  it.each(Object.keys(PAGES))("%s: no client module imports zod statically", (page) => {
    expect(clientZodChains(PAGES[page])).toEqual([]);
  });

  it("sees a client import of a zod module (the check bites)", () => {
    expect(clientZodChains(["components/friends/find-form.tsx"]).some((c) => c.endsWith("lib/validation/friends.ts → zod"))).toBe(true);
  });

  it("does not follow client code into a module of server functions", () => {
    // lib/client/posts.ts calls readCardPage ("use server"), which checks its input with zod on the server.
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
