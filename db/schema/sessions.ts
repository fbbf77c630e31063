import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * A session is one sign-in: a family of rotating refresh tokens. Access tokens carry the session id,
 * so revoking the session (logout, password change, refresh-token reuse) stops both kinds at once.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userAgent: text(),
    ip: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // "Sign out every session of this account" after a password change.
    index("sessions_account_idx").on(t.accountId),
    // The hourly purge (lib/server/jobs/purge-expired.ts): ended sessions without reading every live one.
    index("sessions_expires_idx").on(t.expiresAt),
    index("sessions_revoked_idx").on(t.revokedAt).where(sql`${t.revokedAt} is not null`),
  ],
);

/** Only the SHA-256 of a refresh token is stored; a spent token is kept to detect its reuse. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    tokenHash: text().primaryKey(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    spentAt: timestamp({ withTimezone: true }),
    // The token that replaced this one, sealed (lib/server/auth/tokens.ts): a repeat of the same
    // refresh within the grace window gets it again instead of counting as reuse (docs/adr/0041).
    successorSealed: text(),
  },
  (t) => [index("refresh_tokens_session_idx").on(t.sessionId)],
);
