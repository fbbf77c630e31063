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
// Suites seed with many writes by one account in a moment (posts for a feed, bursts of messages, a
// graph of friend requests): the per-account write limits would refuse the seeding, not an attacker.
// tests/integration/write-rate-limits.test.ts proves the limits with values of its own.
for (const name of ["RATE_LIMIT_POST", "RATE_LIMIT_COMMENT", "RATE_LIMIT_MESSAGE", "RATE_LIMIT_MESSAGE_BURST", "RATE_LIMIT_MESSAGE_EDIT", "RATE_LIMIT_CONTENT_CHANGE", "RATE_LIMIT_REACTION", "RATE_LIMIT_SUBSCRIBE", "RATE_LIMIT_FRIEND_REQUEST"]) {
  process.env[name] ??= "100000/1m";
}

afterAll(async () => {
  // A suite that queued a job started pg-boss on this database: stop it before the database goes.
  await stopBoss();
  await closeDb();
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});
