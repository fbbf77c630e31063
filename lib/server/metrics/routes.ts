// Route patterns for the request metrics (docs/adr/0140): a request is counted under the app route that
// serves it ("/api/v1/posts/[id]"), never under its raw path, so ids never become label values and the
// number of series stays bounded by the number of routes. The patterns come from the app/ folder.
import { readdirSync } from "node:fs";
import path from "node:path";

type Node = { fixed: Map<string, Node>; param?: Node; catchAll?: string; optionalCatchAll?: string; pattern?: string };

const node = (): Node => ({ fixed: new Map() });

/** The label of everything no app route serves: Next's own files, public/ files, unknown paths. */
export const OTHER_ROUTE = "(other)";
export const NEXT_STATIC_ROUTE = "/_next/static";

/** Every page and route handler under `appDir` as its URL pattern: groups "(x)" and slots "@x" leave no segment. */
export function routePatternsFromAppDir(appDir: string): string[] {
  const out = new Set<string>();
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const name = entry.name;
        if (name.startsWith("_") || name.startsWith("(.")) continue; // private folders, intercepting routes
        const skip = (name.startsWith("(") && name.endsWith(")")) || name.startsWith("@");
        walk(path.join(dir, name), skip ? segments : [...segments, name]);
      } else if (/^(page|route)\.(tsx?|jsx?)$/.test(entry.name)) {
        out.add("/" + segments.join("/"));
      }
    }
  };
  walk(appDir, []);
  return [...out].sort();
}

/** Matches a path to its route pattern; fixed segments win over a parameter, a parameter over a catch-all. */
export class RouteMatcher {
  private readonly root = node();

  constructor(patterns: readonly string[]) {
    for (const p of patterns) this.add(p);
  }

  private add(pattern: string) {
    let at = this.root;
    for (const seg of pattern.split("/").filter(Boolean)) {
      if (seg.startsWith("[[...")) {
        at.optionalCatchAll = pattern;
        return;
      }
      if (seg.startsWith("[...")) {
        at.catchAll = pattern;
        return;
      }
      if (seg.startsWith("[")) at = at.param ??= node();
      else {
        let next = at.fixed.get(seg);
        if (!next) at.fixed.set(seg, (next = node()));
        at = next;
      }
    }
    at.pattern = pattern;
  }

  /** The pattern of `pathname` (no query), or OTHER_ROUTE. */
  match(pathname: string): string {
    if (pathname.startsWith("/_next/static/")) return NEXT_STATIC_ROUTE;
    const segments = pathname.split("/").filter(Boolean);
    if (segments.length > 64) return OTHER_ROUTE;
    return this.walk(this.root, segments, 0) ?? OTHER_ROUTE;
  }

  private walk(at: Node, segs: string[], i: number): string | undefined {
    if (i === segs.length) return at.pattern ?? at.optionalCatchAll;
    const fixed = at.fixed.get(segs[i]);
    const viaFixed = fixed && this.walk(fixed, segs, i + 1);
    if (viaFixed) return viaFixed;
    const viaParam = at.param && this.walk(at.param, segs, i + 1);
    if (viaParam) return viaParam;
    return at.catchAll ?? at.optionalCatchAll;
  }
}
