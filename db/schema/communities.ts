import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * Communities (issue 42): groups and public pages. `type` decides who reads (OPEN anyone signed in,
 * CLOSED members — others see the card —, PRIVATE members only: 404 to everyone else); `wall` who posts
 * (ADMINS: a public page, MEMBERS). members_count counts status MEMBER rows and changes in the same
 * transaction as they do. Deleted by the owner: hidden from everyone but the owner, who may restore it
 * within DELETION_RESTORE_DAYS, as accounts.
 */
export const communities = pgTable(
  "communities",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    description: text().notNull().default(""),
    /** A stored image's URL path, or null. */
    photo: text(),
    cover: text(),
    type: text({ enum: ["OPEN", "CLOSED", "PRIVATE"] }).notNull(),
    wall: text({ enum: ["ADMINS", "MEMBERS"] }).notNull().default("MEMBERS"),
    ownerId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id),
    membersCount: integer().notNull().default(0),
    /**
     * Its posts not deleted (scheduled and moderated ones too), kept by a trigger on posts in the writer's
     * transaction whatever path wrote (ADR 0187): the wall's total without counting the wall.
     */
    postsCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    isDeleted: boolean().notNull().default(false),
    deletedAt: timestamp({ withTimezone: true }),
    /**
     * Its posts are read at request time by its members' feeds instead of fanned out into their timelines
     * (ADR 0188): set when members_count first passes COMMUNITY_FANOUT_MAX, and kept.
     */
    readAtRequest: boolean().notNull().default(false),
    /** Blocked by the site's staff: hidden as a deleted one is, from its owner too. */
    isBlocked: boolean().notNull().default(false),
  },
  (t) => [
    // Search by name: trigram similarity of the lowercased name (3 letters find "Шахматный клуб" by "шах"
    // and "клу"), over the communities a search may show (neither deleted nor blocked).
    index("communities_name_trgm_idx")
      .using("gin", sql`lower(${t.name}) gin_trgm_ops`)
      .where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    // Search's first look (ADR 0171): the biggest live communities in search order, read until a page of
    // matches is found among the SEARCH_TOP biggest. members_count in a key makes a join or leave a non-HOT
    // update of the row — the price of a common three letters costing ~1 ms instead of ~25.
    index("communities_size_idx").on(t.membersCount.desc(), t.id.desc()).where(sql`not ${t.isDeleted} and not ${t.isBlocked}`),
    // An owner's communities (erasure of an account, the admin's view).
    index("communities_owner_idx").on(t.ownerId),
    // New communities per day or month (the admin statistics, issue 42): one range of creation times.
    index("communities_created_idx").on(t.createdAt),
    check("communities_members_count_not_negative", sql`${t.membersCount} >= 0`),
    check("communities_posts_count_not_negative", sql`${t.postsCount} >= 0`),
  ],
);

/**
 * A person's standing in a community: MEMBER (with a role), REQUESTED (asked to join a closed one),
 * INVITED (by a member; accepting makes them a member), BANNED (cannot join or ask until unbanned).
 * One row per (community, person); no row is NONE.
 */
export const communityMembers = pgTable(
  "community_members",
  {
    communityId: bigint({ mode: "number" })
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text({ enum: ["MEMBER", "REQUESTED", "INVITED", "BANNED"] }).notNull(),
    /** A member's role; MEMBER for the other statuses (it means nothing there). */
    role: text({ enum: ["OWNER", "ADMIN", "MODERATOR", "MEMBER"] }).notNull().default("MEMBER"),
    /** Who invited them (INVITED), or who banned them (BANNED). */
    byId: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "set null" }),
    /** When the row got its status. */
    since: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The member switched the community's posts out of their news feed. */
    feedOff: boolean().notNull().default(false),
    /** The member asked to be notified of its new posts. */
    notifyPosts: boolean().notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.communityId, t.accountId] }),
    // A person's communities by status, newest first (my communities, invitations, requests; a profile's block).
    index("community_members_account_idx").on(t.accountId, t.status, t.since.desc(), t.communityId),
    // A community's rows by status (members, requests, bans), oldest first; admins first is by role.
    index("community_members_status_idx").on(t.communityId, t.status, t.since, t.accountId),
    // Those who asked to hear of new posts, in join order (COMMUNITY_POST's fan-out, produce.ts): in a community
    // of 100,000 where a few hundred asked, the post reads those few hundred entries, not every member's row.
    index("community_members_notify_idx").on(t.communityId, t.since, t.accountId).where(sql`${t.status} = 'MEMBER' and ${t.notifyPosts}`),
  ],
);
