import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildAsyncApiDocument } from "@/lib/server/openapi/asyncapi";
import { buildOpenApiDocument } from "@/lib/server/openapi/document";

// Issue 29 §2, docs/adr/0139: the documents are committed (docs/api/*.json) so a change of the API shows
// up as a diff in review. This test fails with that diff until the snapshot is regenerated with
// `node --conditions=react-server --import tsx scripts/openapi-write.ts` and committed with the change.
const DIR = path.resolve(import.meta.dirname, "../../docs/api");

function diffLines(committed: string, generated: string): string {
  const a = committed.split("\n");
  const b = generated.split("\n");
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while ((i < a.length || j < b.length) && out.length < 80) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    // Re-synchronise on the next line both sides share (small windows keep it linear).
    let found = false;
    for (let k = 1; k < 40 && !found; k++) {
      if (j + k < b.length && a[i] === b[j + k]) {
        for (let x = 0; x < k; x++) out.push(`+ ${j + x + 1}: ${b[j + x]}`);
        j += k;
        found = true;
      } else if (i + k < a.length && a[i + k] === b[j]) {
        for (let x = 0; x < k; x++) out.push(`- ${i + x + 1}: ${a[i + x]}`);
        i += k;
        found = true;
      }
    }
    if (!found) {
      if (i < a.length) out.push(`- ${i + 1}: ${a[i++]}`);
      if (j < b.length) out.push(`+ ${j + 1}: ${b[j++]}`);
    }
  }
  return out.join("\n");
}

describe("the committed API documents match the code", () => {
  for (const [file, build] of [["openapi.json", buildOpenApiDocument], ["asyncapi.json", buildAsyncApiDocument]] as const) {
    it(`docs/api/${file}`, () => {
      const committed = readFileSync(path.join(DIR, file), "utf8");
      const generated = JSON.stringify(build(), null, 2) + "\n";
      const diff = committed === generated ? "" : diffLines(committed, generated);
      expect(diff, `docs/api/${file} differs from the code (regenerate with scripts/openapi-write.ts and commit it as a deliberate API change):\n${diff}`).toBe("");
    });
  }
});
