// What every Krug process checks before anything else (docs/adr/0160): the Node.js it runs on, and the
// framework's anonymous telemetry, which a self-hosted network does not send anywhere unasked.
import { readFileSync } from "node:fs";
import path from "node:path";

/** The lowest Node.js Krug supports: package.json's `engines.node` (">=22.12"), as [major, minor, patch]. */
export function requiredNode(packageJson = path.join(process.cwd(), "package.json")): [number, number, number] {
  const engines = (JSON.parse(readFileSync(packageJson, "utf8")) as { engines?: { node?: string } }).engines;
  const found = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines?.node?.trim() ?? "");
  if (!found) throw new Error(`package.json: engines.node must read ">=X.Y.Z", not ${JSON.stringify(engines?.node)}`);
  return [Number(found[1]), Number(found[2] ?? 0), Number(found[3] ?? 0)];
}

/** null when `version` ("24.21.0", as process.versions.node) is at least `minimum`, else the line to print. */
export function nodeVersionProblem(version: string, minimum: [number, number, number]): string | null {
  const have = version.replace(/^v/, "").split(".").map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > minimum[i]) return null;
    if ((have[i] ?? 0) < minimum[i]) {
      return (
        `Krug needs Node.js ${minimum.join(".")} or newer; this is Node.js ${version}. ` +
        "Run it with npm (`npm start`, `npm test`): `npm install` brings Node.js 24 LTS into node_modules " +
        "and npm's scripts run on it. Or install Node.js 24 LTS yourself."
      );
    }
  }
  return null;
}

/** Stops the process with one clear line on an unsupported Node.js; switches Next's telemetry off unless asked. */
export function prepareRuntime(): void {
  const problem = nodeVersionProblem(process.versions.node, requiredNode());
  if (problem) {
    console.error(`[krug] ${problem}`);
    process.exit(1);
  }
  // Next.js reports anonymous build and start events unless this is set; an operator may opt in with 0.
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
}
