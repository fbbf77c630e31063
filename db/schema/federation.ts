import { bigint, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * An account's actor keys for the fediverse (issue 43, docs/adr/0172): an RSA pair (HTTP Signatures as
 * most servers verify them) and an Ed25519 pair (Object Integrity Proofs), as JWKs. Made once, when the
 * account first switches federation on, and kept when it is switched off: a remote server that cached the
 * key sees the same actor come back.
 */
export const accountKeys = pgTable("account_keys", {
  accountId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  rsaPublic: jsonb().$type<JsonWebKey>().notNull(),
  rsaPrivate: jsonb().$type<JsonWebKey>().notNull(),
  ed25519Public: jsonb().$type<JsonWebKey>().notNull(),
  ed25519Private: jsonb().$type<JsonWebKey>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
