import "server-only";
import { fromDrizzle, PgBoss, type Db as BossDb } from "pg-boss";
import { sql } from "drizzle-orm";
import { databaseUrl, type Tx } from "@/db/client";
import { log } from "@/lib/server/log";

/**
 * The one pg-boss instance of a process (its own schema `pgboss` in our database). Request handlers
 * use it to put jobs on a queue; start-jobs.ts adds the schedules and workers on top of it.
 */
const globalForBoss = globalThis as unknown as { __krugBoss?: Promise<PgBoss> };

/** Queues that request handlers send to; created when the instance starts, so a send never misses its queue. */
export const QUEUES = {
  /** Mails that must survive a restart (docs/adr/0045). */
  mail: "send-mail",
  /** Files to delete from the store once the rows that pointed at them are gone (docs/adr/0045). */
  blobs: "delete-blobs",
  /** One Web Push to one device (docs/adr/0121): produced from the outbox by the push dispatcher. */
  push: "send-push",
  /** One "download my data" archive to build (docs/adr/0127). */
  export: "account-export",
  /** Home timelines to bring up to date: fan-outs of posts, timelines to build (docs/adr/0137). */
  timeline: "home-timeline",
} as const;

export function getBoss(): Promise<PgBoss> {
  globalForBoss.__krugBoss ??= boot().catch((err) => {
    globalForBoss.__krugBoss = undefined;
    throw err;
  });
  return globalForBoss.__krugBoss;
}

async function boot(): Promise<PgBoss> {
  // LISTEN/NOTIFY wakes the workers of queues that ask for it (the home timeline's: a post reaches its
  // followers within a second, docs/adr/0137) the moment a job is queued; polling stays as the floor.
  const boss = new PgBoss({ connectionString: databaseUrl(), schema: "pgboss", max: 2, useListenNotify: true });
  boss.on("error", (err) => log.error({ err }, "jobs: pg-boss error"));
  await boss.start();
  // A failed mail is tried again with backoff for about an hour before it counts as failed.
  await boss.createQueue(QUEUES.mail, { retryLimit: 8, retryDelay: 15, retryBackoff: true, retryDelayMax: 900, deleteAfterSeconds: 3600 });
  // A push the push service refused for now (5xx, 429, a timeout) is tried again with backoff for about an hour.
  await boss.createQueue(QUEUES.push, { retryLimit: 6, retryDelay: 10, retryBackoff: true, retryDelayMax: 900, deleteAfterSeconds: 3600 });
  // An archive that failed to build is tried twice more, a few minutes apart (its row counts the attempts).
  await boss.createQueue(QUEUES.export, { retryLimit: 2, retryDelay: 60, retryBackoff: true, retryDelayMax: 900, expireInSeconds: 3600, deleteAfterSeconds: 3600 });
  // A timeline sync is idempotent and drains everything pending: a failed one is simply run again soon.
  await boss.createQueue(QUEUES.timeline, { retryLimit: 5, retryDelay: 2, deleteAfterSeconds: 600, notify: true });
  await boss.updateQueue(QUEUES.timeline, { notify: true }); // a queue made before notify was asked for
  await boss.createQueue(QUEUES.blobs, { retryLimit: 10, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, deleteAfterSeconds: 3600 });
  return boss;
}

/** Stops the instance (tests, graceful shutdown); the next getBoss() starts a new one. */
export async function stopBoss(): Promise<void> {
  const running = globalForBoss.__krugBoss;
  globalForBoss.__krugBoss = undefined;
  if (running) await (await running.catch(() => null))?.stop({ graceful: true, timeout: 5_000 });
}

/** Lets pg-boss write inside one of our Drizzle transactions, so a job is queued exactly when the change that asks for it commits. */
export function inTransaction(tx: Tx): BossDb {
  return fromDrizzle(tx, sql);
}
