import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { COMMENTS_CHANNEL, type CommentNotice } from "@/lib/validation/comment-live";

/**
 * Tells every sidecar that a comment of a post was added or changed (ADR 0026). Called inside the
 * change's transaction: Postgres delivers the NOTIFY on commit and drops it on rollback. Ids only;
 * watchers refetch through the API, which applies visibility and blocks.
 */
export async function notifyCommentChange(tx: Tx, notice: CommentNotice): Promise<void> {
  await tx.execute(sql`select pg_notify(${COMMENTS_CHANNEL}, ${JSON.stringify(notice)})`);
}
