import { describe, expect, it } from "vitest";
import { RestartPolicy } from "@/scripts/supervisor";

describe("the supervisor's restart policy", () => {
  it("backs off exponentially up to the cap and gives up after repeated crashes in the window", () => {
    const p = new RestartPolicy({ initialDelayMs: 100, maxDelayMs: 500, maxCrashes: 5, windowMs: 60_000, stableAfterMs: 30_000 });
    expect(p.onCrash(0, 10)).toBe(100);
    expect(p.onCrash(1_000, 10)).toBe(200);
    expect(p.onCrash(2_000, 10)).toBe(400);
    expect(p.onCrash(3_000, 10)).toBe(500);
    expect(p.onCrash(4_000, 10)).toBeNull();
  });

  it("forgets crashes outside the window, and starts over after a long healthy run", () => {
    const p = new RestartPolicy({ initialDelayMs: 100, maxDelayMs: 10_000, maxCrashes: 3, windowMs: 10_000, stableAfterMs: 5_000 });
    expect(p.onCrash(0, 10)).toBe(100);
    expect(p.onCrash(1_000, 10)).toBe(200);
    // 20 s later, after 19 s of healthy running: not a third crash in the window, and the delay resets.
    expect(p.onCrash(21_000, 19_000)).toBe(100);
    expect(p.onCrash(22_000, 10)).toBe(200);
    expect(p.onCrash(23_000, 10)).toBeNull();
  });
});
