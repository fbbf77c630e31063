import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/ready/route";
import { freePort } from "@/db/embedded";
import { createRealtimeServer } from "@/realtime/server";

const migratedUrl = process.env.DATABASE_URL!;

afterEach(() => {
  process.env.DATABASE_URL = migratedUrl;
});

describe("health and readiness", () => {
  it("health answers 200 without looking at the database", async () => {
    process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`;
    const res = await health();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("ready answers 200 on a reachable, migrated database with the sidecar listening", async () => {
    // The sidecar's listening connection is part of readiness (docs/adr/0140; tests/integration/metrics.test.ts).
    const sidecar = await createRealtimeServer({ port: 0 });
    process.env.REALTIME_PORT = String(sidecar.port);
    try {
      const res = await ready();
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.ready).toBe(true);
      expect(body.listener).toBe("up");
      expect(body.migrations.applied).toBe(body.migrations.expected);
    } finally {
      await sidecar.close();
    }
  });

  it("ready answers 503 when the database is down", async () => {
    process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`;
    const res = await ready();
    expect(res.status).toBe(503);
    expect((await res.json()).database).toBe("down");
  });

  it("ready answers 503 when the database is reachable but not migrated", async () => {
    const admin = new URL(migratedUrl);
    admin.pathname = "/postgres";
    const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    const name = `krug_empty_${randomBytes(4).toString("hex")}`;
    await sql.unsafe(`create database ${name}`);
    try {
      const empty = new URL(migratedUrl);
      empty.pathname = `/${name}`;
      process.env.DATABASE_URL = empty.toString();
      const res = await ready();
      expect(res.status).toBe(503);
      expect((await res.json()).database).toBe("up");
    } finally {
      const { closeDb } = await import("@/db/client");
      await closeDb();
      await sql.unsafe(`drop database ${name} with (force)`);
      await sql.end();
    }
  });
});
