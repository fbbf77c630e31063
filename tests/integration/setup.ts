import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/db/client";
import { stopBoss } from "@/lib/server/jobs/boss";

// Each suite (file) gets a fresh database cloned from the migrated template.
const serverUrl = new URL(inject("pgServerUrl"));
const dbName = `krug_t_${randomBytes(6).toString("hex")}`;
const adminUrl = new URL(serverUrl);
adminUrl.pathname = "/postgres";
const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${dbName} template ${inject("templateDb")}`);

const testUrl = new URL(serverUrl);
testUrl.pathname = `/${dbName}`;
process.env.DATABASE_URL = testUrl.toString();
process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
process.env.DATA_DIR ??= `/tmp/krug-test-${process.pid}`;
process.env.LOG_LEVEL ??= "silent";

afterAll(async () => {
  // A suite that queued a job started pg-boss on this database: stop it before the database goes.
  await stopBoss();
  await closeDb();
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});
