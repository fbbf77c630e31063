import "server-only";
import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accountKeys, accountExports, accounts, oneTimeLinks } from "@/db/schema";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { revokeAllSessions } from "@/lib/server/services/auth/sessions";
import { deleteQueuedBlobs, queueBlobDeletions } from "@/lib/server/storage/blob-deletion";
import { leaveGroupsOnErasure } from "@/lib/server/services/dialogs/groups";
import { leaveCommunitiesOnErasure } from "@/lib/server/services/communities/erasure";
import { storedKeyOf } from "@/lib/validation/storage";

/** What an anonymised account is called everywhere it still shows up (old comments, messages). */
export const ANONYMISED_NAME = "DELETED";
export const TOMBSTONE_EMAIL_DOMAIN = "deleted.invalid";

const BATCH = 100;

/**
 * The anonymisation sweep (run every hour by the jobs): every account deleted more than
 * DELETION_RESTORE_DAYS before `now` loses its personal data for good — names become "DELETED", the
 * e-mail a unique tombstone (freeing the address), photo, cover, about, phone, birthday, place and
 * status are cleared (the photo and cover files are deleted from the store), the password hash is replaced by a value no password matches, and every
 * session is revoked. Its deletion time is cleared too, which marks it done: the sweep never looks
 * at it again and it can no longer be restored. Returns how many accounts it anonymised.
 *
 * Batches lock with SKIP LOCKED, so two instances running the sweep at once split the work.
 */
export async function anonymiseExpiredAccounts(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - env().DELETION_RESTORE_DAYS * 24 * 3600_000);
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: accounts.id, photo: accounts.photo, profileCover: accounts.profileCover })
        .from(accounts)
        .where(and(eq(accounts.isDeleted, true), isNotNull(accounts.deletionTimestamp), lte(accounts.deletionTimestamp, cutoff)))
        .orderBy(accounts.deletionTimestamp)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      if (due.length === 0) return { count: 0, files: [] as { id: string; key: string }[] };
      const ids = due.map((r) => r.id);
      await tx
        .update(accounts)
        .set({
          firstName: ANONYMISED_NAME,
          lastName: ANONYMISED_NAME,
          nameLatin: null,
          email: sql`'deleted-' || ${accounts.id} || '-' || substr(md5(random()::text), 1, 12) || ${"@" + TOMBSTONE_EMAIL_DOMAIN}`,
          // Not an argon2 hash: verification fails for every password.
          passwordHash: sql`'!anonymised-' || md5(random()::text)`,
          photo: null,
          profileCover: null,
          about: null,
          phone: null,
          birthDate: null,
          country: null,
          city: null,
          emojiStatus: null,
          // Out of the fediverse for good: its short name is free again, its keys go below (issue 43).
          fediverse: false,
          fediverseName: null,
          lastOnlineTime: null,
          deletionTimestamp: null,
          updatedAt: sql`now()`,
        })
        .where(inArray(accounts.id, ids));
      // Every session ends, and its browsers' push addresses with their queued pushes (docs/adr/0121, 0163).
      await revokeAllSessions(tx, ids);
      await tx.delete(oneTimeLinks).where(inArray(oneTimeLinks.accountId, ids));
      await tx.delete(accountKeys).where(inArray(accountKeys.accountId, ids));
      // An erased account leaves its group conversations (a line of it; an owner's ownership passes on).
      for (const id of ids) await leaveGroupsOnErasure(tx, id);
      // …and its communities (a community it owned passes on, issue 42).
      for (const id of ids) await leaveCommunitiesOnErasure(tx, id);
      // Its data archives (docs/adr/0127) hold everything that was just erased: rows and files go.
      const archives = await tx.delete(accountExports).where(inArray(accountExports.accountId, ids)).returning({ key: accountExports.storageKey });
      const keys = due.flatMap((r) => [r.photo, r.profileCover]).flatMap((p) => (p && storedKeyOf(p) ? [storedKeyOf(p)!] : []));
      keys.push(...archives.flatMap((a) => (a.key ? [a.key] : [])));
      // The files to delete are queued in this transaction: once the rows forget them, a job remembers.
      const files = await queueBlobDeletions(tx, keys);
      return { count: ids.length, files };
    });
    // The photos leave the store in the same sweep, after the commit (a blob store is not transactional).
    // A crash or a store failure here leaves the queued jobs, which a worker finishes (docs/adr/0045).
    await deleteQueuedBlobs(done.files);
    total += done.count;
    if (done.count < BATCH) break;
  }
  if (total > 0) log.info({ count: total }, "deleted accounts anonymised");
  return total;
}
