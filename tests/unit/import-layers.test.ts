// Issue 40, item 22: arrows point down, app → components → lib. lib/client/posts.ts once imported the post
// lists' server action from components/post, the one arrow from lib up into components, and closed a circle
// of eight post files. eslint.config.mjs refuses such an import in lib; this walks the imports as well.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectFile, ROOT, staticImportChains, staticImportSpecs } from "../support/client-namespaces-scan";

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

const above = (file: string) => file.startsWith("components/") || file.startsWith("app/");

describe("lib imports nothing of components or app", () => {
  it("no module of lib imports a module of components or app", () => {
    const upward = sourceFiles("lib").flatMap((file) =>
      staticImportSpecs(readFileSync(path.join(ROOT, file), "utf8"))
        .map((spec) => projectFile(path.join(ROOT, file), spec))
        .filter((dep): dep is string => dep !== null && above(path.relative(ROOT, dep)))
        .map((dep) => `${file} → ${path.relative(ROOT, dep)}`),
    );
    expect(upward).toEqual([]);
  });

  it("the post lists' client code reaches components only from components", () => {
    // lib/client/posts.ts (the post API calls and types) leads back to no component, so no circle runs through it.
    expect(staticImportChains(["lib/client/posts.ts"], (spec) => spec.startsWith("@/components/"))).toEqual([]);
    // The list's pages hook calls the action beside it.
    expect(staticImportChains(["components/post/post-list.tsx"], (spec) => spec.endsWith("card-pages-action")).length).toBeGreaterThan(0);
  });
});
