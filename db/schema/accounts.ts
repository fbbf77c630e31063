import { sql } from "drizzle-orm";
import { bigint, boolean, char, date, index, integer, pgEnum, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const roleEnum = pgEnum("account_role", ["USER", "MODERATOR", "ADMIN"]);

// Privacy settings (issue 26 section 3, docs/adr/0125): who sees the page beyond name and photo, who may
// write, who may ask for friendship. The one rule that reads them is lib/server/services/privacy/rules.ts.
export const profileVisibilityEnum = pgEnum("profile_visibility", ["ALL", "FRIENDS"]);
export const messagesFromEnum = pgEnum("messages_from", ["ALL", "FRIENDS"]);
export const friendRequestsFromEnum = pgEnum("friend_requests_from", ["ALL", "FRIENDS_OF_FRIENDS"]);

export const accounts = pgTable(
  "accounts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    /** The cross-script key of the whole name (lib/server/search/name-latin.ts, docs/adr/0132), written with
     *  every name; null only for accounts the backfill after its migration has not reached yet. */
    nameLatin: text(),
    photo: text(),
    profileCover: text(),
    birthDate: date({ mode: "string" }),
    phone: text(),
    /** ISO 3166-1 alpha-2 (docs/adr/0044); `country` holds only text that names no country. */
    countryCode: char({ length: 2 }),
    country: text(),
    /** GeoNames id of the city (lib/server/geo/data/cities.json); `city` holds only text that names none. */
    cityId: integer(),
    city: text(),
    about: text(),
    emojiStatus: text(),
    /** Privacy (docs/adr/0125): everything open by default, so an account that never chose is as before. */
    profileVisibility: profileVisibilityEnum().notNull().default("ALL"),
    messagesFrom: messagesFromEnum().notNull().default("ALL"),
    friendRequestsFrom: friendRequestsFromEnum().notNull().default("ALL"),
    /** Whether the account appears in other people's search and recommendations. */
    searchable: boolean().notNull().default(true),
    /** Whether the account's public posts go to the fediverse (issue 43, docs/adr/0172); off by default. An
     *  account has an actor only while this is on and the profile is open (profileVisibility ALL). */
    fediverse: boolean().notNull().default(false),
    /** The short fediverse address of the account's choice (`durov@host`, the profile's URL `/@durov`):
     *  3–32 Latin letters, digits and `_`, unique regardless of case; null until chosen. */
    fediverseName: text(),
    /** A person of another server (issue 43, docs/adr/0174): its `remote_actors` row says where. Such an
     *  account never signs in and is never found by name; statistics and NodeInfo count local people only. */
    remote: boolean().notNull().default(false),
    role: roleEnum().notNull().default("USER"),
    /** Language of mails and server-rendered pages for this account. */
    language: text().notNull().default("ru"),
    isBlocked: boolean().notNull().default(false),
    /** A moderator's block for a period (issue 26): it ends at this time; null while blocked means for good. */
    blockedUntil: timestamp({ withTimezone: true }),
    isDeleted: boolean().notNull().default(false),
    deletionTimestamp: timestamp({ withTimezone: true }),
    lastOnlineTime: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Sign-in and registration look accounts up by e-mail regardless of case.
    uniqueIndex("accounts_email_lower_key").on(sql`lower(${t.email})`),
    // Staff (administrators and moderators): the recipients of the open-reports count (issue 26).
    index("accounts_staff_idx").on(t.id).where(sql`${t.role} <> 'USER'`),
    // The anonymisation job scans only accounts whose restore window may have passed.
    index("accounts_deleted_idx").on(t.deletionTimestamp).where(sql`${t.isDeleted}`),
    // The sitemap pages through the public profile shells (accounts neither deleted nor blocked by the
    // administration) by id, keyset, and reads their last change: an index-only range scan per sitemap
    // file (docs/adr/0014).
    index("accounts_listed_id_idx").on(t.id, t.updatedAt).where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    // Accounts whose content nobody sees (deleted, or blocked by the administration): a small set the
    // news feeds hash once per statement and test each post's author against (docs/adr/0094).
    index("accounts_hidden_idx").on(t.id).where(sql`${t.isDeleted} or ${t.isBlocked}`),
    // Statistics and the admin users list (issue 13): accounts by registration time.
    index("accounts_created_at_idx").on(t.createdAt),
    // The birthday job (every 10 minutes, issue 24 item 22): the accounts born on a month and day, without
    // a scan of every account (about 300 ms at a million accounts → 25 ms; docs/adr/0114).
    index("accounts_birthday_idx")
      .on(sql`extract(month from ${t.birthDate})`, sql`extract(day from ${t.birthDate})`, t.id)
      .where(sql`${t.birthDate} is not null and not ${t.isDeleted}`),
    // People search: case-insensitive partial words (ILIKE '%…%' on lower(...)) in any language go
    // through trigram GIN indexes; the expressions must match the search queries exactly.
    index("accounts_first_name_trgm_idx").using("gin", sql`lower(${t.firstName}) gin_trgm_ops`),
    index("accounts_last_name_trgm_idx").using("gin", sql`lower(${t.lastName}) gin_trgm_ops`),
    index("accounts_full_name_trgm_idx").using(
      "gin",
      sql`lower(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`,
    ),
    // People search across scripts (docs/adr/0132): the typed words folded the same way, part of a word.
    index("accounts_name_latin_trgm_idx").using("gin", sql`${t.nameLatin} gin_trgm_ops`),
    // People search, one or two letters (too short for trigrams): a prefix of the lowered name, as a
    // range of a "C"-collated btree, read in order (docs/adr/0046).
    index("accounts_first_name_prefix_idx").on(sql`lower(${t.firstName}) collate "C"`, t.id),
    index("accounts_last_name_prefix_idx").on(sql`lower(${t.lastName}) collate "C"`, t.id),
    // People search without a name, or sorted by a name: early pages read these in order, LIMIT stops
    // the scan (docs/adr/0046). Only listed accounts: what everyone but staff searches.
    index("accounts_listed_name_idx").on(t.firstName, t.lastName, t.id).where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    // People search by place (docs/adr/0044): a country, or a country and its city; a city alone by id.
    index("accounts_listed_place_idx").on(t.countryCode, t.cityId).where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    index("accounts_listed_city_idx").on(t.cityId).where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    // The free-text side of a place filter (another client's text that names no place): part of a word.
    index("accounts_country_trgm_idx").using("gin", sql`lower(${t.country}) gin_trgm_ops`),
    index("accounts_city_trgm_idx").using("gin", sql`lower(${t.city}) gin_trgm_ops`),
    index("accounts_listed_last_name_idx").on(t.lastName, t.firstName, t.id).where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    // Privacy (docs/adr/0125): the closed profiles are a small set that the global feed and news search read
    // once per statement and hash (NOT IN), as accounts_hidden_idx above. (People search tests the
    // searchable column of the rows it reads: no index of its own, see the ADR.)
    uniqueIndex("accounts_fediverse_name_key").on(sql`lower(${t.fediverseName})`).where(sql`${t.fediverseName} is not null`),
    index("accounts_closed_idx").on(t.id).where(sql`${t.profileVisibility} <> 'ALL'`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;

/**
 * People search by the beginning of a name (docs/adr/0136): one row per distinct lowered token of an
 * account's name — the whole first and last names, their parts split at spaces, hyphens and the like, and
 * the words of the cross-script key (accounts.name_latin, docs/adr/0132) — with `kinds` saying where it
 * came from (1 first name, 2 last name, 4 Latin key). Written only by the trigger of migration 0038 from the
 * account's row (so every writer of a name keeps it in step), with the account's `listed` (neither deleted
 * nor blocked) and `searchable` copied, so that a prefix range is read in order and counted from the index
 * alone. The search reads `token collate "C"` ranges of account_search_tokens_prefix_idx.
 */
export const accountSearchTokens = pgTable(
  "account_search_tokens",
  {
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    token: text().notNull(),
    kinds: smallint().notNull(),
    listed: boolean().notNull(),
    searchable: boolean().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.token] }),
    // A prefix is a range of this index, read in (token, account) order; the flags make its count index-only.
    index("account_search_tokens_prefix_idx").on(sql`${t.token} collate "C"`, t.accountId, t.kinds, t.listed, t.searchable),
  ],
);
