import { sql } from "drizzle-orm";
import { bigint, index, pgEnum, pgTable, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/** PENDING: queued or being built; READY: the archive is stored; FAILED: every attempt failed (docs/adr/0127). */
export const accountExportStatusEnum = pgEnum("account_export_status", ["PENDING", "READY", "FAILED"]);

/**
 * "Download my data" (issue 26 section 4, docs/adr/0127): one row per requested archive. The export job
 * builds the ZIP into the blob store (`storage_key`) and marks the row READY with a 7-day expiry; the
 * sweep deletes the file and the row after that. The id is random, so the download path it appears in
 * says nothing about how many archives exist; it is no credential: only the owner's session downloads.
 */
export const accountExports = pgTable(
  "account_exports",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: accountExportStatusEnum().notNull().default("PENDING"),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
    /** The archive in the blob store (`export-<hex>.zip`: never a key the public file route serves). */
    storageKey: text(),
    /** Bytes of the archive. */
    size: bigint({ mode: "number" }),
    /** Attempts the job made; after the last one fails the row is FAILED. */
    attempts: smallint().notNull().default(0),
  },
  (t) => [
    // The account's latest request (GET account/export, the once-a-day check of POST): one short range.
    index("account_exports_account_idx").on(t.accountId, t.requestedAt.desc()),
    // The sweep: archives past their expiry, and old failures, without a scan of the table.
    index("account_exports_expires_idx").on(t.expiresAt).where(sql`${t.expiresAt} is not null`),
  ],
);

export type AccountExportRow = typeof accountExports.$inferSelect;
