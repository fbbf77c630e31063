import { describe, expect, it } from "vitest";
import { staticImportChains } from "../support/client-namespaces-scan";

// docs/adr/0092: Radix loads on intent (components/ui/lazy-radix.tsx). It only pays when no module of a
// page's first load imports Radix statically — one static import brings back the shared base (focus scope,
// dismissable layer, popper) for every menu. Dynamic `import()` (next/dynamic, LazyMenu) is not followed.

const PAGES: Record<string, string[]> = {
  feed: ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/page.tsx"],
  "/login": ["app/layout.tsx", "app/(form)/layout.tsx", "app/(form)/login/page.tsx"],
  "/profile": ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/profile/page.tsx"],
};

/** Every chain of static imports from the entries to the package. */
const staticRadixChains = (entries: string[]) => staticImportChains(entries, (spec) => spec.startsWith("@radix-ui/"));

describe("Radix stays out of the first load", () => {
  it.each(Object.keys(PAGES))("%s imports Radix only on intent", (page) => {
    expect(staticRadixChains(PAGES[page])).toEqual([]);
  });

  it("sees a static import (the check bites)", () => {
    expect(staticRadixChains(["components/ui/confirm-dialog-radix.tsx"])).toEqual(["components/ui/confirm-dialog-radix.tsx → @radix-ui/react-alert-dialog"]);
  });
});
