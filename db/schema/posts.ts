import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { communities } from "./communities";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * News posts (issue 9). A post is visible when it is not deleted, its author is not deleted and its
 * publish_date has come (query-time visibility: a scheduled post is QUEUED until then, with no job
 * needed to publish it). Counts shown on every card live on the row and change in the same
 * transaction as what they count.
 */
export const posts = pgTable(
  "posts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    authorId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    title: text().notNull(),
    /** Sanitised HTML (lib/validation/post-html.ts). */
    postText: text().notNull(),
    imagePath: text(),
    /** When the post appears: creation time, or the scheduled time. */
    publishDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Creation time. */
    time: timestamp({ withTimezone: true }).notNull().defaultNow(),
    timeChanged: timestamp({ withTimezone: true }),
    /**
     * A repost (issue 27): the original it shares, never itself a repost (a repost of a repost points to
     * the original). The card reads the original as the viewer may see it, or says it is gone.
     */
    repostOfId: bigint({ mode: "number" }).references((): AnyPgColumn => posts.id),
    /**
     * The author client's id for this post (optional, a UUID): a retry with the same id answers the post it
     * already made instead of posting twice (docs/adr/0144).
     */
    clientId: uuid(),
    /**
     * A post on a community's wall (issue 42), or null on its author's own wall. A community's posts never
     * appear on the author's wall, in the friends feed by author or in the global feed: posts_feed_idx leaves
     * them out, posts_author_feed_idx carries the column, posts_community_idx reads a wall. Searches of every
     * post find those the viewer may read (posts_community_time_idx).
     */
    communityId: bigint({ mode: "number" }).references(() => communities.id),
    /** Signed by the community (an admin's post on its wall): the card shows the community, not the author. */
    asCommunity: boolean().notNull().default(false),
    isDeleted: boolean().notNull().default(false),
    /** Blocked by a moderator (issue 13): hidden from everyone but its author (who sees it marked) and staff. */
    isBlocked: boolean().notNull().default(false),
    commentsCount: integer().notNull().default(0),
    /** Reactions of every type. */
    likeAmount: integer().notNull().default(0),
    /** Reactions per type, `{"fire": 3, "heart": 1}`; types at 0 are removed. Sums to like_amount. */
    reactionCounts: jsonb().$type<Record<string, number>>().notNull().default({}),
    /**
     * Full-text search over title (weight A) and text (B) in both the Russian and the English
     * configuration, so 'кошками' finds 'кошка' and 'cats' finds 'cat'. The default parser skips HTML
     * tags and entities, so the sanitised HTML is indexed as it is.
     */
    search: tsvector()
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('russian'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('russian'::regconfig, coalesce(post_text, '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce(post_text, '')), 'B')`,
      ),
  },
  (t) => [
    // The global feed (GET post/newsPosts without withFriends): newest first with id breaking ties;
    // exactly the ORDER BY of the feed query, scanned backwards from now(). author_id and is_blocked
    // ride along so the feed and its capped count are index-only scans (docs/adr/0094).
    index("posts_feed_idx").on(t.publishDate.desc(), t.id.desc(), t.authorId, t.isBlocked).where(sql`not ${t.isDeleted} and ${t.communityId} is null`),
    // Walls and the friends feed: one author's posts newest first. The friends feed reads the top
    // offset+size entries of each followed author through this index (LATERAL) and merges those;
    // with is_blocked in the key every check is answered by the index (index-only, no heap visit).
    // community_id rides along (issue 42): a person's wall and the friends feed skip their community posts
    // in the index, and every "all of an author's posts" read (export, admin, erasure) keeps this index.
    index("posts_author_feed_idx").on(t.authorId, t.publishDate.desc(), t.id.desc(), t.isBlocked, t.communityId).where(sql`not ${t.isDeleted}`),
    // A community's wall (issue 42): its posts newest first, index-only with the author and the moderators' block.
    index("posts_community_idx").on(t.communityId, t.publishDate.desc(), t.id.desc(), t.isBlocked, t.authorId).where(sql`not ${t.isDeleted} and ${t.communityId} is not null`),
    // A community wall's total (ADR 0187): communities.posts_count less the posts a reader may not see, of which
    // the moderated ones are read here (the scheduled ones are posts_community_idx's short range after now()).
    index("posts_community_blocked_idx").on(t.communityId, t.publishDate, t.authorId).where(sql`${t.isBlocked} and not ${t.isDeleted} and ${t.communityId} is not null`),
    // Searches of every post reach the communities' posts too (issue 42): their own time index, so a common
    // word's newest matches on communities' walls come after a few index pages, as posts_feed_idx's do.
    // community_id rides along (ADR 0188): a timeline row of a community's post is checked from the index alone.
    index("posts_community_time_idx").on(t.publishDate.desc(), t.id.desc(), t.authorId, t.isBlocked, t.communityId).where(sql`not ${t.isDeleted} and ${t.communityId} is not null`),
    // News search.
    index("posts_search_idx").using("gin", t.search),
    // News search's branch over communities' posts (ADR 0189): a common word's matches among the communities'
    // posts only, where the whole index's bitmap of it (175,000 posts for «кошками») cost 50 ms to build.
    index("posts_community_search_idx").using("gin", t.search).where(sql`not ${t.isDeleted} and ${t.communityId} is not null`),
    // The reposts of a post (issue 27): the foreign key of repost_of_id is checked against it when a post row
    // goes (a purge, the bench), instead of a scan of every post; partial, so the million ordinary posts add nothing.
    // Idempotent posting: (author, clientId) is unique where a clientId was sent (docs/adr/0144).
    uniqueIndex("posts_author_client_key").on(t.authorId, t.clientId).where(sql`${t.clientId} is not null`),
    index("posts_repost_of_idx").on(t.repostOfId).where(sql`${t.repostOfId} is not null`),
    // Statistics (issue 13): new posts per day over a range, and the admin list newest first.
    index("posts_time_idx").on(t.time.desc(), t.id.desc()),
    check("posts_counts_not_negative", sql`${t.likeAmount} >= 0 and ${t.commentsCount} >= 0`),
  ],
);

/** Tags are global: one row per name compared case-insensitively; the first spelling is kept. */
export const tags = pgTable(
  "tags",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    /** Non-deleted posts carrying the tag: the "most used first" order of GET tag. */
    postsCount: integer().notNull().default(0),
  },
  (t) => [
    // One tag per lower(name); text_pattern_ops also serves the prefix search of GET tag
    // (lower(name) LIKE 'ab%') under any database collation.
    uniqueIndex("tags_name_lower_key").on(sql`lower(${t.name}) text_pattern_ops`),
    // A news search's words also match tags (issue 40 item 17): the tags whose name the text's query
    // matches, by the same configurations as posts.search (list-posts.ts's tagVector).
    index("tags_search_idx").using("gin", sql`(to_tsvector('russian'::regconfig, ${t.name}) || to_tsvector('english'::regconfig, ${t.name}))`),
  ],
);

export const postTags = pgTable(
  "post_tags",
  {
    postId: bigint({ mode: "number" })
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    tagId: bigint({ mode: "number" })
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [
    // A page's tags: post_id = any(ids). Also answers "does post P carry tag T" for the tags filter.
    primaryKey({ columns: [t.postId, t.tagId] }),
    // Posts of one tag (the tags filter when the tag is rare).
    index("post_tags_tag_idx").on(t.tagId, t.postId),
  ],
);

/** At most one reaction per person per post: the primary key is the pair. */
export const postReactions = pgTable(
  "post_reactions",
  {
    postId: bigint({ mode: "number" })
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** One of the 69 ids of lib/validation/reactions.ts. */
    reactionType: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The viewer's reaction on each post of a page: (post_id, account_id) = any pairs.
    primaryKey({ columns: [t.postId, t.accountId] }),
    // Deleting an account cascades through its reactions.
    index("post_reactions_account_idx").on(t.accountId),
    // Statistics (issue 13): new reactions per day over a range.
    index("post_reactions_created_at_idx").on(t.createdAt),
    // Who reacted (issue 27, ADR 0131): a post's reactions newest first, all of them or of one type; read
    // backwards to the page and stopped there, account_id breaking ties in the same order.
    index("post_reactions_post_time_idx").on(t.postId, t.createdAt, t.accountId),
    index("post_reactions_post_type_time_idx").on(t.postId, t.reactionType, t.createdAt, t.accountId),
  ],
);

export type PostRow = typeof posts.$inferSelect;
export type TagRow = typeof tags.$inferSelect;
