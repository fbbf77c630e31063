import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientImportChains, MEASURED_PAGES, ROOT, staticImportChains } from "../support/client-namespaces-scan";

// docs/adr/0151: what left the measured pages' first load, kept out.
// - `next/link` and `next/form`: components/ui/link.tsx and components/layout/search-form.tsx route with the
//   router's push; either package, imported by any module of a page (a server component's import ships its
//   client code too), brings back about 3.7 KB gzip.
// - The table of the 69 reactions (lib/validation/reactions.ts) loads when the picker is wanted or a reaction
//   is sent; the card's own titles come from the server. The post text rules and error codes
//   (lib/validation/post-shared.ts) load with the composer; the lists' page sizes are in post-page-sizes.ts.
//   Server components import both freely: only modules below a "use client" boundary reach the browser.

const PAGES = MEASURED_PAGES;

/** Every chain of static imports from the entries, through client code, to one of `files` (paths from the root). */
function clientChains(entries: string[], files: string[]): string[] {
  const wanted = new Set(files.map((f) => path.join(ROOT, f)));
  return clientImportChains(entries, (_spec, file) => file !== null && wanted.has(file));
}

const nextLinkOrForm = (spec: string) => spec === "next/link" || spec === "next/form";
const OFF_FIRST_LOAD = ["lib/validation/reactions.ts", "lib/validation/post-shared.ts"];

describe("next/link and next/form are in no page", () => {
  it.each(Object.keys(PAGES))("%s imports neither", (page) => {
    expect(staticImportChains(PAGES[page], nextLinkOrForm)).toEqual([]);
  });

  it("sees an import (the check bites)", () => {
    // The link routes with next/navigation's router, a package import the same scan finds.
    expect(staticImportChains(["components/ui/button.tsx"], (spec) => spec === "next/navigation")).toEqual(["components/ui/button.tsx → components/ui/link.tsx → next/navigation"]);
  });
});

describe("the reaction table and the post text rules load on intent", () => {
  it.each(["feed", "/profile", "/search"])("%s: no client module imports them statically", (page) => {
    expect(clientChains(PAGES[page], OFF_FIRST_LOAD)).toEqual([]);
  });

  it("sees a client import (the check bites)", () => {
    expect(clientChains(["components/post/who-reacted-tabs.tsx"], OFF_FIRST_LOAD)).toContain("components/post/who-reacted-tabs.tsx → lib/validation/reactions.ts");
    expect(clientChains(["components/post/post-form.tsx"], OFF_FIRST_LOAD)).toContain("components/post/post-form.tsx → lib/validation/post-shared.ts");
  });

  it("does not count a server component's import", () => {
    expect(readFileSync(path.join(ROOT, "components/post/post-card.tsx"), "utf8")).toMatch(/from "@\/lib\/validation\/reactions"/);
    expect(clientChains(["components/post/post-card.tsx"], OFF_FIRST_LOAD)).toEqual([]);
  });
});
