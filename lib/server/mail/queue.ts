import "server-only";
import type { Job } from "pg-boss";
import type { Tx } from "@/db/client";
import { sealToken, unsealToken } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { getBoss, inTransaction, QUEUES } from "@/lib/server/jobs/boss";
import { log } from "@/lib/server/log";
import { sendMail, type Mail } from "./send";

/** A queued mail: sealed, because it carries a one-time secret and the queue is a plain table. */
export type MailJob = { sealed: string; requestId?: string };

/**
 * Queues a mail in the caller's transaction: it is sent if and only if the change that asked for it
 * commits, and a restart between the answer and the sending loses nothing (a pg-boss worker sends it,
 * retrying with backoff when the mail server is down).
 */
export async function queueMail(tx: Tx, mail: Mail, requestId?: string): Promise<void> {
  const boss = await getBoss();
  const data: MailJob = { sealed: sealToken(JSON.stringify(mail), env().AUTH_SECRET), requestId };
  await boss.send(QUEUES.mail, data, { db: inTransaction(tx) });
}

/** The worker: sends one queued mail; a throw makes pg-boss try again later. */
export async function deliverQueuedMail(data: MailJob): Promise<void> {
  const plain = unsealToken(data.sealed, env().AUTH_SECRET);
  if (plain === null) {
    // Sealed under another AUTH_SECRET: it can never be opened, so retrying is pointless.
    log.error({ requestId: data.requestId }, "queued mail cannot be opened (AUTH_SECRET changed); dropped");
    return;
  }
  await sendMail(JSON.parse(plain) as Mail);
}

export async function deliverMailJobs(jobs: Job<MailJob>[]): Promise<void> {
  for (const job of jobs) await deliverQueuedMail(job.data);
}

/**
 * Sends every mail waiting on the queue now, in this process (tests; a worker does it in the app).
 * A mail that fails goes back to the queue for a later retry; the first failure is thrown at the end.
 */
export async function drainMailQueue(): Promise<number> {
  const boss = await getBoss();
  let sent = 0;
  let failure: unknown;
  for (;;) {
    const jobs = await boss.fetch<MailJob>(QUEUES.mail, { batchSize: 20 });
    if (jobs.length === 0) break;
    for (const job of jobs) {
      try {
        await deliverQueuedMail(job.data);
        await boss.complete(QUEUES.mail, job.id);
        sent++;
      } catch (err) {
        await boss.fail(QUEUES.mail, job.id, { message: String(err) });
        failure ??= err;
      }
    }
  }
  if (failure) throw failure;
  return sent;
}
