// `next build` as the scripts run it (scripts/e2e-server.ts, which `npm test` builds with, and
// scripts/build-release.ts): its output passes through as it comes, and a build that warns that a dynamic
// filesystem access "causes tracing of the whole project" fails. Such a warning means the server's traced
// files (what a standalone output or a container copies) hold the whole repository: tests, docs, bench,
// public and DATA_DIR if it lives in the checkout (issue 40 item 11, docs/adr/0168).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const WHOLE_PROJECT = /causes tracing of the whole project/i;
const ANSI = /\u001b\[[0-9;]*m/g;
/** The location line Turbopack prints above each warning: `./lib/server/mail/mailbox.ts:92:20`. */
const LOCATION = /^\.?\/?[\w@./[\]()-]+\.[cm]?[jt]sx?:\d+:\d+$/;

/** The source locations of the build output's whole-project tracing warnings (none: an empty list). */
export function wholeProjectTraceWarnings(output: string): string[] {
  const lines = output.replace(ANSI, "").split(/\r?\n/).map((l) => l.trim());
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (!WHOLE_PROJECT.test(line)) return;
    const at = lines[i - 1] && LOCATION.test(lines[i - 1]) ? lines[i - 1] : "(location not printed)";
    found.push(at);
  });
  return found;
}

/**
 * Folders a server never reads at run time. A trace that holds more than WHOLE_PROJECT_FILES of their files traced
 * the whole project, warned or not (Turbopack warns only for some patterns: a silent one came from
 * lib/server/backup, docs/adr/0168). A few stray files (a name that matches a scoped pattern) are not that.
 */
const NEVER_TRACED = ["tests/", "docs/", "bench/"];
const WHOLE_PROJECT_FILES = 50;

/** The build's trace files (every .nft.json under distDir, relative to it) that hold the whole project. */
export function wholeProjectTraceFiles(distDir: string, projectDir = process.cwd()): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(distDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".nft.json")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const traced = (JSON.parse(readFileSync(file, "utf8")) as { files: string[] }).files;
    const inProject = traced.map((f) => path.relative(projectDir, path.resolve(path.dirname(file), f)).split(path.sep).join("/"));
    if (inProject.filter((f) => NEVER_TRACED.some((dir) => f.startsWith(dir))).length > WHOLE_PROJECT_FILES) found.push(path.relative(distDir, file));
  }
  return found.sort();
}

/** Runs `next build` with `env`; resolves with its exit code, or 1 when it traced the whole project. */
export async function nextBuild(env: NodeJS.ProcessEnv): Promise<number> {
  const build = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: ["inherit", "pipe", "pipe"], env });
  let output = "";
  build.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  build.stderr.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    output += chunk.toString();
  });
  const code = await new Promise<number>((resolve) => build.on("close", (c) => resolve(c ?? 1)));
  const warnings = wholeProjectTraceWarnings(output);
  if (warnings.length === 0 && code === 0) {
    const traces = wholeProjectTraceFiles(env.NEXT_DIST_DIR || ".next");
    if (traces.length === 0) return 0;
    console.error(
      `\n[krug] the build FAILED its check: ${traces.length} trace(s) hold the whole project (hundreds of files of tests/, docs/, bench/) without a warning:\n` +
        `${traces.map((t) => `  ${t}`).join("\n")}\n` +
        `[krug] a dynamic path reached from there is project-relative: mark it as the operator's (path.join(/*turbopackIgnore: true*/ …); docs/adr/0168).`,
    );
    return 1;
  }
  if (warnings.length === 0) return code;
  console.error(
    `\n[krug] the build FAILED its check: ${warnings.length} dynamic filesystem access(es) make the bundler trace the whole ` +
      `project into the server's output:\n${warnings.map((w) => `  ${w}`).join("\n")}\n` +
      `[krug] scope the path (a fixed folder), or mark the call as the operator's (path.join(/*turbopackIgnore: true*/ …), ` +
      `as lib/server/backup/pool.ts does; docs/adr/0168).`,
  );
  return code === 0 ? 1 : code;
}
