import { sql } from "drizzle-orm";
import { bigint, index, integer, interval, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { comments } from "./comments";
import { posts } from "./posts";

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

/**
 * A person of another server (issue 43, docs/adr/0174), as an account row of ours so that every relation,
 * post, comment and reaction of theirs takes the same tables and services as a local person's. The account
 * row cannot sign in (an address under `.invalid`, no password) and is never listed in search by name; this
 * row says where the actor lives.
 */
export const remoteActors = pgTable(
  "remote_actors",
  {
    accountId: bigint({ mode: "number" })
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The actor's id (its URI), as the fediverse names it. */
    uri: text().notNull(),
    inbox: text().notNull(),
    sharedInbox: text(),
    /** The server's host (with its port when not the default), lowercase: what an admin blocks. */
    host: text().notNull(),
    /** `user@host`, as people type it. */
    handle: text().notNull(),
    /** The profile's page on its own server. */
    url: text(),
    /** Where its avatar was fetched from: fetched again only when this changes. */
    iconUrl: text(),
    /** Its counts as its own server states them (its collections' totalItems), read with its recent posts. */
    followersCount: integer(),
    followingCount: integer(),
    postsCount: integer(),
    fetchedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("remote_actors_uri_key").on(t.uri), index("remote_actors_handle_idx").on(sql`lower(${t.handle})`), index("remote_actors_host_idx").on(t.host)],
);

/** A remote person who follows a local one: the local one's fediverse audience (the followers collection). */
export const fediverseFollowers = pgTable(
  "fediverse_followers",
  {
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    followerId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The id of their Follow, which a Reject of ours names. */
    activityId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.followerId] })],
);

/**
 * A local person's follow of a remote one: the Follow's id (the peer's Accept names it) and whether it was
 * accepted. Posts of a remote person are taken in only while some local person follows them.
 */
export const fediverseFollowing = pgTable(
  "fediverse_following",
  {
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    targetId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    activityId: text().notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.targetId] }),
    uniqueIndex("fediverse_following_activity_key").on(t.activityId),
    index("fediverse_following_target_idx").on(t.targetId),
  ],
);

/** A post that came from the fediverse: its Note's id, which Update and Delete name. */
export const remotePosts = pgTable(
  "remote_posts",
  {
    postId: bigint({ mode: "number" })
      .primaryKey()
      .references(() => posts.id, { onDelete: "cascade" }),
    uri: text().notNull(),
  },
  (t) => [uniqueIndex("remote_posts_uri_key").on(t.uri)],
);

/**
 * What is to be said to the fediverse, written in the transaction of the change that says it (a follow, a
 * post published, edited or deleted) and handed to Fedify's delivery queue by the job process's relay.
 */
export const fediverseOutbox = pgTable("fediverse_outbox", {
  id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text().notNull(),
  accountId: bigint({ mode: "number" }).notNull(),
  postId: bigint({ mode: "number" }),
  targetId: bigint({ mode: "number" }),
  commentId: bigint({ mode: "number" }),
  activityId: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A comment that came from the fediverse (a reply to a post): its Note's id, which Update and Delete name. */
export const remoteComments = pgTable(
  "remote_comments",
  {
    commentId: bigint({ mode: "number" })
      .primaryKey()
      .references(() => comments.id, { onDelete: "cascade" }),
    uri: text().notNull(),
  },
  (t) => [uniqueIndex("remote_comments_uri_key").on(t.uri)],
);

/**
 * A server the administrators blocked (issue 43, docs/adr/0174): nothing is delivered to it, nothing it
 * sends is taken, nobody is looked up there, and its people's accounts here are blocked (their content
 * hidden) while it stands. The reason is in the audit log, as every staff action's.
 */
export const fediverseBlockedServers = pgTable(
  "fediverse_blocked_servers",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** As remote_actors.host: lowercase, with a port when not the default. */
    host: text().notNull(),
    reason: text(),
    blockedBy: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("fediverse_blocked_servers_host_key").on(t.host)],
);

/**
 * Fedify's three queues (incoming activities, fan-outs, deliveries; docs/adr/0175), each a table of its own
 * in the shape @fedify/postgres makes, and indexed by age: its driver takes the oldest due message one
 * statement at a time (`order by created limit 1`), which without the index read the whole table for
 * every message — quadratic in a fan-out's size.
 */
const fedifyQueueTable = (name: string) =>
  pgTable(
    name,
    {
      id: uuid().primaryKey().defaultRandom(),
      message: jsonb().notNull(),
      delay: interval().default("0 seconds"),
      created: timestamp({ withTimezone: true }).defaultNow(),
    },
    (t) => [index(`${name}_created_idx`).on(t.created)],
  );
export const fedifyInboxQueue = fedifyQueueTable("fedify_inbox_queue");
export const fedifyOutboxQueue = fedifyQueueTable("fedify_outbox_queue");
export const fedifyFanoutQueue = fedifyQueueTable("fedify_fanout_queue");
