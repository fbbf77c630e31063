import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REACTIONS, reactionManifest } from "@/lib/validation/reactions";

// The picker reads its list from lib/validation/reactions.ts; public/post-reactions/manifest.json is
// served for other clients. The two must never drift apart (rebuild with `npm run reactions:build`).
const dir = path.join(process.cwd(), "public", "post-reactions");

describe("reaction manifest", () => {
  it("the served manifest equals what the code lists, in the same order", () => {
    const served: unknown = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8"));
    expect(served).toEqual(reactionManifest());
    expect(reactionManifest().map((e) => e.reactionType)).toEqual(REACTIONS.map((r) => r.id));
  });

  it("every listed image is a file under public/", () => {
    for (const entry of reactionManifest()) {
      expect(existsSync(path.join(process.cwd(), "public", entry.image)), entry.image).toBe(true);
    }
  });
});
