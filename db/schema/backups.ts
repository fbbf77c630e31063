import { bigint, bigserial, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every backup run (issue 30 §1, docs/adr/0141), scheduled or by hand: when, where, how big, and how it
 * ended. Written when a run ends (a row written before would be in the backup itself, still "running").
 * The admin statistics page shows the latest; a failed scheduled run also mails the administrators.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** scheduled (the daily job) or manual (npm run backup). */
    trigger: text().notNull(),
    /** succeeded or failed. */
    result: text().notNull(),
    destination: text().notNull(),
    /** The base backup's folder name in the destination (succeeded runs). */
    backupId: text(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    databaseBytes: bigint({ mode: "number" }),
    uploadsBytes: bigint({ mode: "number" }),
    /** Bytes the destination holds after the run and its retention. */
    destinationBytes: bigint({ mode: "number" }),
    error: text(),
  },
  (t) => [index("backup_runs_finished_idx").on(t.finishedAt.desc())],
);

export type BackupRunRow = typeof backupRuns.$inferSelect;
