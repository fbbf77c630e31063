import { describe, expect, it } from "vitest";
import { inModes, missedTargets, type LighthouseSummary } from "@/bench/pages";

// The bench's Lighthouse modes (issue 44): every page in every throttling and visit, the trivial page on
// first visits only, and the repeat visit's target of 0.5 s with the throttling applied.

describe("the Lighthouse modes", () => {
  it("measures every page in every mode, named with it, and the one-app trivial page on first visits only", () => {
    const trivial = { name: "trivial page", path: "/", as: null, app: { label: "Next.js alone", baseUrl: "http://x" } };
    const feed = { name: "feed (/)", path: "/", as: "me" as const };
    const pages = inModes(
      [trivial, feed],
      [
        { visit: "first", throttling: "simulate" },
        { visit: "repeat", throttling: "devtools" },
      ],
    );
    expect(pages.map((p) => p.name)).toEqual(["trivial page · first · simulate", "feed (/) · first · simulate", "feed (/) · repeat · devtools"]);
    expect(pages[2]!.mode).toEqual({ visit: "repeat", throttling: "devtools" });
  });

  it("holds a repeat visit with applied throttling to 0.5 s, the others to 2.5 s", () => {
    const summary = (page: string, lcp: number): LighthouseSummary => ({
      page,
      app: "after",
      runs: 5,
      failures: [],
      performances: [1],
      performance: 1,
      accessibility: 1,
      metrics: { "first-contentful-paint": lcp, "largest-contentful-paint": lcp, "total-blocking-time": 0, "cumulative-layout-shift": 0, "speed-index": lcp },
      benchmarkIndex: 1000,
      diagnostics: [],
    });
    expect(missedTargets(summary("feed (/) · repeat · devtools", 480))).toEqual([]);
    expect(missedTargets(summary("feed (/) · repeat · devtools", 900))).toEqual(["LCP 0.90 s > 0.5 s"]);
    expect(missedTargets(summary("feed (/) · first · devtools", 900))).toEqual([]);
    expect(missedTargets(summary("feed (/) · repeat · simulate", 900))).toEqual([]);
  });
});
