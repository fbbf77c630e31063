import { describe, expect, it } from "vitest";
import { RestartPolicy, Supervisor } from "@/scripts/supervisor";

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

describe("the supervisor's planned restart (docs/adr/0149)", () => {
  it("stops the child, starts a new one at once with the new options, and counts no crash", async () => {
    const lines: string[] = [];
    let gaveUp = false;
    const supervisor = new Supervisor((l) => lines.push(l), () => (gaveUp = true), { maxCrashes: 2 });
    // A child that prints its RELEASE and waits for its signal.
    const script = "process.stdout.write(process.env.RELEASE); setInterval(() => {}, 1000)";
    const output = (child: import("node:child_process").ChildProcess) =>
      new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(String(d))));
    const entry = supervisor.start("child", process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RELEASE: "one" } });
    const first = entry.current!;
    expect(await output(first)).toBe("one");
    for (const release of ["two", "three"]) {
      const next = await supervisor.restart("child", 2_000, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RELEASE: release } });
      expect(next).not.toBeNull();
      expect(await output(next!)).toBe(release);
    }
    expect(first.signalCode).toBe("SIGTERM");
    expect(entry.restarts).toBe(0);
    expect(gaveUp).toBe(false);
    expect(lines).toEqual([]);
    await supervisor.stopAll(2_000);
  });
});
