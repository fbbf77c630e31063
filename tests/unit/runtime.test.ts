// Krug runs on a supported Node.js LTS, brought by `npm install` itself, and sends no telemetry (issue 40,
// items 12 and 13; docs/adr/0160).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, requiredNode } from "@/lib/server/runtime";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe("the Node.js Krug runs on", () => {
  it("is a supported LTS declared in engines", () => {
    expect(requiredNode(path.join(root, "package.json"))).toEqual([22, 12, 0]);
  });

  it("refuses older versions with a line that says what to do, and accepts newer ones", () => {
    const minimum: [number, number, number] = [22, 12, 0];
    expect(nodeVersionProblem("20.20.2", minimum)).toMatch(/needs Node\.js 22\.12\.0 or newer; this is Node\.js 20\.20\.2.*npm start/);
    expect(nodeVersionProblem("22.11.9", minimum)).not.toBeNull();
    expect(nodeVersionProblem("v22.12.0", minimum)).toBeNull();
    expect(nodeVersionProblem("24.21.0", minimum)).toBeNull();
    expect(nodeVersionProblem("26.0.0", minimum)).toBeNull();
  });

  it("comes with the install: npm's `node` package, on PATH first in every npm script", () => {
    expect(pkg.dependencies.node).toMatch(/^\^24\./);
    expect(pkg.allowScripts.node).toBe(true);
    const bin = path.join(root, "node_modules/.bin/node");
    expect(existsSync(bin)).toBe(true);
    const version = execFileSync(bin, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
    expect(version.split(".")[0]).toBe("24");
    // These tests themselves run on it: `npm test` → vitest through node_modules/.bin.
    expect(process.versions.node).toBe(version);
  });

  it("stops an entry script on an older Node.js before anything else runs", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "krug-runtime-"));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ engines: { node: ">=99.0.0" } }));
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, ["--import", pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href, path.join(root, "scripts/lib/runtime.ts")], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain(`[krug] Krug needs Node.js 99.0.0 or newer; this is Node.js ${process.versions.node}`);
  });
});

describe("argon2 (issue 40, item 12)", () => {
  it("loads its N-API prebuilt binary: the install compiled nothing and fetched no headers", async () => {
    const require = createRequire(import.meta.url);
    const argon2Dir = path.dirname(require.resolve("argon2/package.json"));
    const nodeGypBuild = require("node-gyp-build") as { path: (dir: string) => string };
    expect(path.relative(argon2Dir, nodeGypBuild.path(argon2Dir))).toMatch(/^prebuilds\/linux-x64\//);
    expect(existsSync(path.join(argon2Dir, "build"))).toBe(false);
    const argon2 = require("argon2") as typeof import("argon2");
    const hash = await argon2.hash("correct horse", { timeCost: 2, memoryCost: 4096 });
    expect(await argon2.verify(hash, "correct horse")).toBe(true);
  });
});

describe("the framework's telemetry (issue 40, item 13)", () => {
  it("is off in every entry script and in the build script", () => {
    const env = { ...process.env };
    delete env.NEXT_TELEMETRY_DISABLED;
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", "-e", `await import(${JSON.stringify(path.join(root, "scripts/lib/runtime.ts"))}); console.log(process.env.NEXT_TELEMETRY_DISABLED)`],
      { cwd: root, encoding: "utf8", env },
    );
    expect(out.trim()).toBe("1");
    expect(pkg.scripts.build).toMatch(/^NEXT_TELEMETRY_DISABLED=\$\{NEXT_TELEMETRY_DISABLED:-1\} next build$/);
    for (const script of ["scripts/start.ts", "scripts/e2e-server.ts", "scripts/build-release.ts"]) {
      const firstImport = readFileSync(path.join(root, script), "utf8").split("\n").find((line) => line.startsWith("import "));
      expect(firstImport, script).toMatch(/^import "\.\/lib\/runtime";/);
    }
  });
});
