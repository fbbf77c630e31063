import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgEnum, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/** A registration captcha: only hashes are kept; a secret is single-use and short-lived. */
export const captchas = pgTable(
  "captchas",
  {
    secretHash: text().primaryKey(),
    codeHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // Expired captchas are purged by age.
  (t) => [index("captchas_expires_idx").on(t.expiresAt)],
);

export const linkKindEnum = pgEnum("one_time_link_kind", ["PASSWORD_RECOVERY", "PASSWORD_CHANGE", "EMAIL_CHANGE", "EMAIL_UNDO"]);

/** Links mailed to a person (password recovery, password change, e-mail change); only the token hash is stored. */
export const oneTimeLinks = pgTable(
  "one_time_links",
  {
    tokenHash: text().primaryKey(),
    kind: linkKindEnum().notNull(),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The address an EMAIL_CHANGE link will switch the account to. */
    newEmail: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // A new link of a kind supersedes the account's earlier unused ones.
  (t) => [index("one_time_links_account_kind_idx").on(t.accountId, t.kind)],
);

/** The seven switches of spec section 3, one row per account (created with defaults on first read). */
export const notificationSettings = pgTable(
  "notification_settings",
  {
  accountId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  enablePost: boolean().notNull().default(true),
  enablePostComment: boolean().notNull().default(true),
  enableCommentComment: boolean().notNull().default(true),
  enableFriendRequest: boolean().notNull().default(true),
  enableMessage: boolean().notNull().default(true),
  enableFriendBirthday: boolean().notNull().default(true),
  enableSendEmailMessage: boolean().notNull().default(false),
  /** Issue 26: "your report was reviewed". */
  enableReportResolved: boolean().notNull().default(true),
  /** Issue 27: someone shared my post on their wall. */
  enableRepost: boolean().notNull().default(true),
  /** Issue 41: someone added me to a group conversation. */
  enableGroupAdded: boolean().notNull().default(true),
  /** Issue 42: someone asked to join a closed community I own or administer. */
  enableCommunityRequest: boolean().notNull().default(true),
  /** Issue 42: my request to join a community was accepted. */
  enableCommunityAccepted: boolean().notNull().default(true),
  /** Issue 42: a member invited me to a community. */
  enableCommunityInvitation: boolean().notNull().default(true),
  /** Issue 42: new posts of the communities whose posts I asked to hear of. */
  enableCommunityPost: boolean().notNull().default(true),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // The fan-out types (POST, FRIEND_BIRTHDAY, COMMUNITY_POST) leave out those who turned them off: an anti-join against
  // just these rows, however many accounts have a settings row (ADR 0095).
  (t) => [
    index("notification_settings_post_off_idx").on(t.accountId).where(sql`not ${t.enablePost}`),
    index("notification_settings_birthday_off_idx").on(t.accountId).where(sql`not ${t.enableFriendBirthday}`),
    index("notification_settings_community_post_off_idx").on(t.accountId).where(sql`not ${t.enableCommunityPost}`),
  ],
);

/**
 * Storage of rate-limiter-flexible's RateLimiterPostgres (created here, not by the library, so every
 * table comes from migrations; the limiter is configured with tableCreated: true).
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: varchar({ length: 255 }).primaryKey(),
    points: integer().notNull().default(0),
    expire: bigint({ mode: "number" }),
  },
  (t) => [index("rate_limits_expire_idx").on(t.expire).where(sql`${t.expire} is not null`)],
);
