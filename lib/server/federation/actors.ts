import "server-only";
import { and, desc, eq, isNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts, posts } from "@/db/schema";

/**
 * What the fediverse may read of Krug (docs/adr/0172): the accounts that switched federation on, with an
 * open profile, neither deleted nor blocked; and of them only their own public posts — on their own wall
 * (not in a community), published, neither deleted nor blocked. Every dispatcher reads through here.
 */

/** The condition of a federated account, on `accounts`. */
const federated = and(eq(accounts.fediverse, true), eq(accounts.profileVisibility, "ALL"), eq(accounts.isDeleted, false), eq(accounts.isBlocked, false));

export type FederatedAccount = {
  id: number;
  firstName: string;
  lastName: string;
  about: string | null;
  photo: string | null;
  profileCover: string | null;
  fediverseName: string | null;
  searchable: boolean;
  createdAt: Date;
};

const accountColumns = {
  id: accounts.id,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  about: accounts.about,
  photo: accounts.photo,
  profileCover: accounts.profileCover,
  fediverseName: accounts.fediverseName,
  searchable: accounts.searchable,
  createdAt: accounts.createdAt,
};

/** The account behind an actor identifier (its id as decimal digits), when it federates. */
export async function federatedAccount(db: DbOrTx, identifier: string): Promise<FederatedAccount | null> {
  if (!/^[1-9][0-9]{0,15}$/.test(identifier)) return null;
  const [row] = await db
    .select(accountColumns)
    .from(accounts)
    .where(and(eq(accounts.id, Number(identifier)), federated))
    .limit(1);
  return row ?? null;
}

/**
 * A WebFinger or profile-URL name to an actor identifier: `id<N>` is every federated account's own, any
 * other name a chosen short name (case does not matter). Null for anyone who does not federate.
 */
export async function identifierOfName(db: DbOrTx, name: string): Promise<string | null> {
  const own = /^id([1-9][0-9]{0,15})$/i.exec(name);
  if (own) return (await federatedAccount(db, own[1]!)) ? own[1]! : null;
  if (!/^[A-Za-z0-9_]{3,32}$/.test(name)) return null;
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.fediverseName}) = ${name.toLowerCase()}`, federated))
    .limit(1);
  return row ? String(row.id) : null;
}

/** The account that holds a short name, federated or not (the profile URL `/@name` opens it either way). */
export async function accountOfShortName(db: DbOrTx, name: string): Promise<number | null> {
  if (!/^[A-Za-z0-9_]{3,32}$/.test(name)) return null;
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.fediverseName}) = ${name.toLowerCase()}`, eq(accounts.isDeleted, false)))
    .limit(1);
  return row?.id ?? null;
}

export type FederatedPost = {
  id: number;
  authorId: number;
  title: string;
  postText: string;
  imagePath: string | null;
  publishDate: Date;
  timeChanged: Date | null;
  /** Its tags' names, alphabetically. */
  tags: string[];
};

const postColumns = {
  id: posts.id,
  authorId: posts.authorId,
  title: posts.title,
  postText: posts.postText,
  imagePath: posts.imagePath,
  publishDate: posts.publishDate,
  timeChanged: posts.timeChanged,
  tags: sql<string[]>`coalesce((select array_agg(t.name order by t.name) from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = ${posts.id}), '{}')`,
};

const publicPost = and(isNull(posts.communityId), isNull(posts.repostOfId), eq(posts.isDeleted, false), eq(posts.isBlocked, false), lte(posts.publishDate, sql`now()`));

/** A post the fediverse may read: its own, public, and its author federates. */
export async function federatedPost(db: DbOrTx, id: string): Promise<FederatedPost | null> {
  if (!/^[1-9][0-9]{0,15}$/.test(id)) return null;
  const [row] = await db
    .select(postColumns)
    .from(posts)
    .innerJoin(accounts, eq(accounts.id, posts.authorId))
    .where(and(eq(posts.id, Number(id)), publicPost, federated))
    .limit(1);
  return row ?? null;
}

export const OUTBOX_PAGE = 20;

/**
 * A page of an account's public posts in its wall's order (newest published first), after the cursor (the
 * last post id of the page before); the next cursor or null. Read in the order of posts_author_feed_idx
 * (author, publish date, id), so a page stops after its rows however many posts the author has.
 */
export async function federatedPostsPage(db: DbOrTx, accountId: number, cursor: string): Promise<{ items: FederatedPost[]; next: string | null } | null> {
  const before = cursor === "" ? null : /^[1-9][0-9]{0,15}$/.test(cursor) ? Number(cursor) : undefined;
  if (before === undefined) return null;
  const after =
    before === null
      ? undefined
      : sql`(${posts.publishDate}, ${posts.id}) < (select p.publish_date, p.id from posts p where p.id = ${before} and p.author_id = ${accountId})`;
  const rows = await db
    .select(postColumns)
    .from(posts)
    .where(and(eq(posts.authorId, accountId), publicPost, after))
    .orderBy(desc(posts.publishDate), desc(posts.id))
    .limit(OUTBOX_PAGE + 1);
  const items = rows.slice(0, OUTBOX_PAGE);
  return { items, next: rows.length > OUTBOX_PAGE ? String(items[items.length - 1]!.id) : null };
}

/** How many public posts an account has (the outbox's totalItems). */
export async function federatedPostsCount(db: DbOrTx, accountId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(posts).where(and(eq(posts.authorId, accountId), publicPost));
  return row?.n ?? 0;
}
