import "server-only";
import type { Job } from "pg-boss";
import type { Tx } from "@/db/client";
import { getBoss, inTransaction, QUEUES } from "@/lib/server/jobs/boss";
import { log } from "@/lib/server/log";
import { getBlobStore } from "./blob-store";

export type BlobDeletionJob = { key: string };

/**
 * Queues the deletion of stored files in the caller's transaction, the one that drops the rows pointing
 * at them: if it commits, the files will go even if the process dies right after; if it rolls back, they
 * stay. Returns the jobs, for deleteQueuedBlobs to do them at once.
 */
export async function queueBlobDeletions(tx: Tx, keys: string[]): Promise<{ id: string; key: string }[]> {
  if (keys.length === 0) return [];
  const boss = await getBoss();
  const db = inTransaction(tx);
  const queued: { id: string; key: string }[] = [];
  for (const key of keys) {
    const id = await boss.send(QUEUES.blobs, { key } satisfies BlobDeletionJob, { db });
    if (id) queued.push({ id, key });
  }
  return queued;
}

/** The worker: deletes one file (deleting a missing file is fine, so a repeat is harmless). */
export async function deleteBlobJobs(jobs: Job<BlobDeletionJob>[]): Promise<void> {
  for (const job of jobs) await getBlobStore().delete(job.data.key);
}

/**
 * Deletes queued files now, after their transaction committed, and marks their jobs done. A failure is
 * logged and its job left on the queue: the worker retries it with backoff.
 */
export async function deleteQueuedBlobs(queued: { id: string; key: string }[]): Promise<void> {
  if (queued.length === 0) return;
  const boss = await getBoss();
  for (const { id, key } of queued) {
    try {
      await getBlobStore().delete(key);
      await boss.complete(QUEUES.blobs, id, null, { includeQueued: true });
    } catch (err) {
      log.warn({ err, key }, "could not delete a stored file now; its queued job will retry");
    }
  }
}
