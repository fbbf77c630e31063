// Issue 40 item 11: the build the tests and releases make fails on a whole-project tracing warning
// (scripts/lib/next-build.ts). The output below is Turbopack's, as `next build` printed it (colours included).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { wholeProjectTraceFiles, wholeProjectTraceWarnings } from "@/scripts/lib/next-build";

const WARNED = [
  "✓ Generating static pages using 1 worker (84/84) in 3.8s",
  "Turbopack build encountered 2 warnings:",
  "./lib/server/backup/pool.ts:40:18",
  "Warning: Dynamic filesystem access causes tracing of the whole project",
  "  \u001b[90m38 |\u001b[0m   \u001b[36mawait\u001b[0m writeFile(path.join(baseDir, \u001b[32m\"uploads.json\"\u001b[0m), \u001b[33mJSON\u001b[0m.stringify(uploads));",
  "Static analysis determined that this filesystem access causes the whole project to be traced and included in the output.",
  "",
  "./lib/server/mail/mailbox.ts:92:20",
  "\u001b[33mWarning\u001b[0m: Dynamic filesystem access causes tracing of the whole project",
  "Route (app)",
].join("\n");

describe("the build check", () => {
  it("names the location of every whole-project tracing warning", () => {
    expect(wholeProjectTraceWarnings(WARNED)).toEqual(["./lib/server/backup/pool.ts:40:18", "./lib/server/mail/mailbox.ts:92:20"]);
  });

  it("passes a build without one", () => {
    expect(wholeProjectTraceWarnings("✓ Compiled successfully in 95s\nRoute (app)\n┌ ƒ /\n")).toEqual([]);
  });
});

describe("the trace check", () => {
  it("names the traces that hold the whole project (tests, docs, bench), warned or not, and passes the rest", () => {
    const project = mkdtempSync(path.join(tmpdir(), "krug-trace-"));
    const dist = path.join(project, ".next");
    const trace = (rel: string, files: string[]) => {
      mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
      writeFileSync(path.join(dist, rel), JSON.stringify({ version: 1, files }));
    };
    try {
      const many = (dir: string, n: number) => Array.from({ length: n }, (_, i) => `${dir}/f${i}.ts`);
      trace("server/instrumentation.js.nft.json", ["../../node_modules/pg/index.js", ...many("../../tests/e2e", 40), ...many("../../docs/adr", 20), "../../lib/x.ts"]);
      trace("server/app/api/v1/account/me/route.js.nft.json", ["../../../../../../node_modules/pg/index.js", "../../../../../../drizzle/0001.sql"]);
      // A stray file matched by a scoped pattern is not the whole project.
      trace("server/app/api/v1/storage/route.js.nft.json", ["../../../../../../docs/adr/0006-accounts-uploads-geography.md"]);
      trace("server/app/page.js.nft.json", many("../../../bench", 51));
      expect(wholeProjectTraceFiles(dist, project)).toEqual(["server/app/page.js.nft.json", "server/instrumentation.js.nft.json"]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
