import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * Who stored an uploaded image (issue 40 item 6, docs/adr/0161): one row per key, written with the file.
 * A message may attach only its sender's own uploads (or photos already in that dialog), so nobody can
 * make someone else's image part of a chat, or of the data archive that copies a chat's photos.
 * Uploads from before this table were given to the account that used them first (migration 0048).
 */
export const uploads = pgTable(
  "uploads",
  {
    /** The store key (`<32 hex>.webp`), as in the URL path /api/v1/storage/files/<key>. */
    key: text().primaryKey(),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // The cascade from accounts.
  (t) => [index("uploads_account_idx").on(t.accountId)],
);
