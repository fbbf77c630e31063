import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { currentRelease, inUse, listReleases, markInUse, pointCurrentAt, releasesDir, servingDistDir } from "@/scripts/releases";

// Which build `npm start` and a rolling restart serve (docs/adr/0149), on directories made here.
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function build(dir: string, id: string, at: number) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "BUILD_ID"), id);
  utimesSync(path.join(dir, "BUILD_ID"), at, at);
}

describe("the builds beside each other", () => {
  it("serves the newer of the current release and the plain build", () => {
    const root = mkdtempSync(path.join(tmpdir(), "krug-releases-"));
    dirs.push(root);
    const base = path.join(root, ".next");
    expect(servingDistDir(base)).toBe(base); // nothing built yet: the first start builds here
    build(base, "plain", 1_000);
    expect(servingDistDir(base)).toBe(base);
    const release = path.join(releasesDir(base), "20261127T160000Z");
    build(release, "release", 2_000);
    expect(servingDistDir(base)).toBe(base); // not pointed at yet
    pointCurrentAt(release, base);
    expect(currentRelease(base)).toBe(release);
    expect(servingDistDir(base)).toBe(release);
    build(base, "plain again", 3_000); // a later `npm run build` is not shadowed by the older release
    expect(servingDistDir(base)).toBe(base);
    // A release without its BUILD_ID (a build that failed midway) is never served.
    mkdirSync(path.join(releasesDir(base), "20261127T170000Z"));
    pointCurrentAt(path.join(releasesDir(base), "20261127T170000Z"), base);
    expect(currentRelease(base)).toBeNull();
    expect(listReleases(base).map((d) => path.basename(d))).toEqual(["20261127T160000Z", "20261127T170000Z"]);
  });

  it("knows the builds a running Krug serves, and forgets a Krug that is gone", () => {
    const root = mkdtempSync(path.join(tmpdir(), "krug-releases-"));
    dirs.push(root);
    const base = path.join(root, ".next");
    const a = path.join(releasesDir(base), "20261127T160000Z");
    const b = path.join(releasesDir(base), "20261127T170000Z");
    markInUse([a, b], base);
    expect(inUse(base)).toEqual(new Set([a, b]));
    writeFileSync(path.join(releasesDir(base), "in-use.999999999"), `${a}\n`); // no such process
    markInUse([b], base);
    expect(inUse(base)).toEqual(new Set([b]));
    markInUse([], base);
    expect(inUse(base)).toEqual(new Set());
  });
});
