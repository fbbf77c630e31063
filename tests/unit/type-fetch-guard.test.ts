// The guard for postgres.js's dropped array-type fetch (db/type-fetch-guard.ts) knows that one rejection only.
import { describe, expect, it } from "vitest";
import { isDroppedTypeFetch } from "@/db/type-fetch-guard";

describe("dropped array-type fetch", () => {
  it("is recognised by the catalog query it carries", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:37933"), {
      code: "ECONNREFUSED",
      query: "\n      select b.oid, b.typarray\n      from pg_catalog.pg_type a\n",
    });
    expect(isDroppedTypeFetch(error)).toBe(true);
  });

  it("leaves every other rejection alone", () => {
    expect(isDroppedTypeFetch(new Error("select b.oid, b.typarray"))).toBe(false);
    expect(isDroppedTypeFetch(Object.assign(new Error("x"), { query: "select 1" }))).toBe(false);
    expect(isDroppedTypeFetch(Object.assign(new Error("x"), { query: ["select b.oid, b.typarray"] }))).toBe(false);
    expect(isDroppedTypeFetch("select b.oid, b.typarray")).toBe(false);
    expect(isDroppedTypeFetch(null)).toBe(false);
    expect(isDroppedTypeFetch(undefined)).toBe(false);
  });
});

describe("a process with the guard", () => {
  const guard = new URL("../../db/type-fetch-guard.ts", import.meta.url).pathname;
  async function run(rejection: string) {
    const { spawnSync } = await import("node:child_process");
    const script = `const { guardDroppedTypeFetch } = await import(${JSON.stringify(guard)});
      guardDroppedTypeFetch(() => process.stdout.write("warned\\n"));
      Promise.reject(${rejection});
      setTimeout(() => process.stdout.write("alive\\n"), 50);`;
    return spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 10_000 });
  }

  it("logs the dropped fetch and goes on", async () => {
    const res = await run(`Object.assign(new Error("gone"), { query: "select b.oid, b.typarray from pg_type" })`);
    expect(res.stdout).toBe("warned\nalive\n");
    expect(res.status).toBe(0);
  });

  it("still ends on any other unhandled rejection", async () => {
    const res = await run(`new Error("a real bug")`);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("a real bug");
    expect(res.status).not.toBe(0);
  });
});
