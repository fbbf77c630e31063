import "server-only";
import { createFederation, importJwk, ParallelMessageQueue, type Context, type Federation, type MessageQueue } from "@fedify/fedify";
import { PostgresMessageQueue } from "@fedify/postgres";
import { Temporal } from "@js-temporal/polyfill";
import { Accept, Announce, Create, Delete, Document, EmojiReact, Endpoints, Follow, Hashtag, Image, isActor, Like, Note, Person, PUBLIC_COLLECTION, Reject, Tombstone, traverseCollection, Undo, Update } from "@fedify/vocab";
import type postgres from "postgres";
import { Agent, setGlobalDispatcher } from "undici";
import { eq, sql } from "drizzle-orm";
import { getDb, getSql, type Db, type DbOrTx, type Tx } from "@/db/client";
import { accountKeys } from "@/db/schema";
import { env } from "@/lib/server/env";
import { ConflictError, ServiceError } from "@/lib/server/http/errors";
import { log } from "@/lib/server/log";
import { removeFriendRelation, subscribeToAccount } from "@/lib/server/services/friends/actions";
import { deleteRemoteComment, editRemoteComment, storeRemoteComment } from "@/lib/server/services/comments/remote-comments";
import { removePostReaction, setPostReaction } from "@/lib/server/services/posts/reactions";
import { deleteRemotePost, editRemotePost, storeRemotePost } from "@/lib/server/services/posts/remote-posts";
import { repostPost } from "@/lib/server/services/posts/write-posts";
import { COMMENT_TEXT_MAX } from "@/lib/validation/comment-shared";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { REACTIONS, type ReactionType } from "@/lib/validation/reactions";
import { normalizeTagName, POST_TAGS_MAX, tagKey } from "@/lib/validation/post-shared";
import { federatedAccount, federatedPost, federatedPostsCount, federatedPostsPage, identifierOfName, type FederatedAccount, type FederatedPost } from "./actors";
import { KrugKvStore } from "./kv";
import { nodeInfo } from "./nodeinfo";
import { isServerBlocked } from "./blocked";
import { importRemoteImage, type MediaFetchOptions } from "./media";
import { FEDIVERSE_NOTIFY_CHANNEL } from "./outbox";
import { HANDLE, refuseFetch, remoteActorByUri, remoteHtmlText, remoteViewer, upsertRemoteActor, type RemoteActor } from "./remote";

/**
 * Krug's one federation module (issue 43, docs/adr/0172): Fedify's setup and its dispatchers. Every
 * dispatcher reads through ./actors (what the fediverse may see) and writes through the same services as
 * the REST routes. Paths: an actor is its profile's URL (`/profile/{id}`, content-negotiated), its inbox,
 * outbox, followers and following beneath it; a Note is its post's URL (`/post/{id}`); `/inbox` is the
 * shared inbox; discovery goes through WebFinger.
 */

/** What every dispatcher and listener of an instance reads: its database. */
export type FederationData = { db: Db };

/** One Krug's federation: its Fedify object, its database and public origin (the process has one; tests make two). */
export type KrugFederation = { federation: Federation<FederationData>; db: Db; sql: postgres.Sql; origin: string; allowPrivateAddress: boolean };

const globalForFederation = globalThis as unknown as { __krugFederation?: { key: string; instance: KrugFederation } };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function absolute(path: string | null, origin: string): URL | null {
  if (!path) return null;
  try {
    return new URL(path, `${origin}/`);
  } catch {
    return null;
  }
}

/** The text of a profile's "about" as the HTML a remote server shows: escaped, line breaks kept. */
function aboutHtml(about: string | null): string | null {
  const text = about?.trim();
  if (!text) return null;
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** A comment's plain text as a Note's HTML: escaped, paragraphs and line breaks kept. */
function textHtml(text: string): string {
  return aboutHtml(text) ?? "";
}

/** Krug's reactions by their emoji (with and without the variation selector), and back. */
const REACTION_OF_EMOJI = new Map<string, ReactionType>(
  REACTIONS.flatMap((r) => {
    const emoji = String.fromCodePoint(...r.codePoints.map((c) => parseInt(c, 16)));
    return [
      [emoji, r.id],
      [emoji.replace(/\uFE0F/g, ""), r.id],
    ] as Array<[string, ReactionType]>;
  }),
);

function emojiOfReaction(id: string): string | null {
  const reaction = REACTIONS.find((r) => r.id === id);
  return reaction ? String.fromCodePoint(...reaction.codePoints.map((c) => parseInt(c, 16))) : null;
}

/** A remote reaction as one of Krug's: a Like without content is a heart; an emoji Krug has is that reaction; anything else none. */
function reactionOfRemote(content: string | null | undefined): ReactionType | null {
  const text = content?.trim() ?? "";
  if (text === "" || text === "❤" || text === "♥") return "heart";
  if (text.length > 32) return null;
  return REACTION_OF_EMOJI.get(text) ?? REACTION_OF_EMOJI.get(text.replace(/\uFE0F/g, "")) ?? null;
}

/** A post's HTML as a Note's content: its title as the first paragraph, then its body, sanitised once more. */
export function noteContent(post: Pick<FederatedPost, "title" | "postText">): string {
  const title = post.title.trim();
  return `${title ? `<p><strong>${escapeHtml(title)}</strong></p>` : ""}${sanitizePostHtml(post.postText)}`;
}

/** The account's key pairs, RSA first (the one most servers read as `publicKey`), or none. */
async function actorKeyPairs(db: DbOrTx, accountId: number): Promise<CryptoKeyPair[]> {
  const [row] = await db.select().from(accountKeys).where(eq(accountKeys.accountId, accountId)).limit(1);
  if (!row) return [];
  const [rsaPublic, rsaPrivate, edPublic, edPrivate] = await Promise.all([
    importJwk(row.rsaPublic, "public"),
    importJwk(row.rsaPrivate, "private"),
    importJwk(row.ed25519Public, "public"),
    importJwk(row.ed25519Private, "private"),
  ]);
  return [
    { publicKey: rsaPublic, privateKey: rsaPrivate },
    { publicKey: edPublic, privateKey: edPrivate },
  ];
}


const isPublicNote = (note: Note) => [...note.toIds, ...note.ccIds].some((u) => u.href === PUBLIC_COLLECTION.href);

/** The services' context for an activity of a remote person: they act as themselves. */
const remoteCtx = (db: Db, accountId: number, activity: URL | null) => ({
  viewer: remoteViewer(accountId),
  db,
  requestId: `fediverse:${activity?.href.slice(0, 200) ?? "?"}`,
});

/** A Follow id of ours (`…/profile/{id}#follows/{uuid}`) as its uuid, when `url` is one on this origin. */
function ownFollowId(url: URL | null, origin: string): string | null {
  if (!url || url.origin !== new URL(origin).origin) return null;
  return /^#follows\/([0-9a-f-]{36})$/.exec(url.hash)?.[1] ?? null;
}

/**
 * What a remote activity asked for could not be done for a reason of its own (a post too long, a limit
 * spent, a block): it is dropped and logged, not retried. Anything else is thrown and Fedify retries it.
 */
async function refusedQuietly(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    log.info({ what, code: err.code, message: err.message }, "fediverse: activity refused");
  }
}

/** A public post as its Note: at the post's URL, to everyone, its author's followers in copy. */
function noteOf(ctx: Context<FederationData>, post: FederatedPost): Note {
  const origin = ctx.canonicalOrigin;
  return new Note({
    id: ctx.getObjectUri(Note, { id: String(post.id) }),
    attribution: ctx.getActorUri(String(post.authorId)),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(String(post.authorId)),
    content: noteContent(post),
    url: new URL(`/post/${post.id}`, `${origin}/`),
    published: Temporal.Instant.fromEpochMilliseconds(post.publishDate.getTime()),
    updated: post.timeChanged ? Temporal.Instant.fromEpochMilliseconds(post.timeChanged.getTime()) : null,
    attachments: post.imagePath ? [new Image({ url: absolute(post.imagePath, origin), mediaType: "image/webp" })] : [],
    // Its tags as hashtags, each linking to the tag's search here (as the big servers link theirs).
    tags: post.tags.map((name) => new Hashtag({ name: `#${name}`, href: new URL(`/search?${new URLSearchParams({ tab: "news", tags: name })}`, `${origin}/`) })),
  });
}

/** A federating account as its actor: what every signed-in person sees of its page, its keys, its collections. */
async function personOf(ctx: Context<FederationData>, account: FederatedAccount): Promise<Person> {
  const identifier = String(account.id);
  const origin = ctx.canonicalOrigin;
  const keys = await ctx.getActorKeyPairs(identifier);
  const photo = absolute(account.photo, origin);
  const cover = absolute(account.profileCover, origin);
  return new Person({
    id: ctx.getActorUri(identifier),
    preferredUsername: account.fediverseName ?? `id${account.id}`,
    name: `${account.firstName} ${account.lastName}`.trim(),
    summary: aboutHtml(account.about),
    url: new URL(account.fediverseName ? `/@${account.fediverseName}` : `/profile/${account.id}`, `${origin}/`),
    icon: photo ? new Image({ url: photo, mediaType: "image/webp" }) : null,
    image: cover ? new Image({ url: cover, mediaType: "image/webp" }) : null,
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    manuallyApprovesFollowers: false,
    discoverable: account.searchable,
    indexable: account.searchable,
    published: Temporal.Instant.fromEpochMilliseconds(account.createdAt.getTime()),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((k) => k.multikey),
  });
}

/** One of Fedify's three queues on Krug's database: its own table and notification channel. */
function fedifyQueue(pg: postgres.Sql, kind: "inbox" | "outbox" | "fanout"): MessageQueue {
  return new PostgresMessageQueue(pg, { tableName: `fedify_${kind}_queue`, channelName: `fedify_${kind}` }) as unknown as MessageQueue;
}

type FederationOptions = { db: Db; sql: postgres.Sql; origin: string; allowPrivateAddress: boolean };

/** One Krug's federation on its database, answering as `origin` (docs/adr/0172, 0174). */
export function createKrugFederation({ db, sql: pg, origin, allowPrivateAddress }: FederationOptions): KrugFederation {
  const federation = createFederation<FederationData>({
    kv: new KrugKvStore(pg),
    // Incoming activities, fan-outs and deliveries wait in Krug's database, each kind in a table of its own
    // (migration 0063 makes them, indexed by age), and are worked by the job process (startFederationWorkers):
    // deliveries 32 at once, so that slow servers (each bounded by the outgoing timeouts) hold some workers,
    // never the incoming activities' queue. (@fedify/postgres 1.8 types enqueueMany with a mutable array.)
    queue: {
      inbox: new ParallelMessageQueue(fedifyQueue(pg, "inbox"), 8),
      outbox: new ParallelMessageQueue(fedifyQueue(pg, "outbox"), 32),
      fanout: new ParallelMessageQueue(fedifyQueue(pg, "fanout"), 2),
    },
    manuallyStartQueue: true,
    origin,
    allowPrivateAddress,
    userAgent: { software: "Krug/1.0" },
  });

  federation
    .setActorDispatcher("/profile/{identifier}", async (ctx, identifier) => {
      const account: FederatedAccount | null = await federatedAccount(ctx.data.db, identifier);
      return account ? personOf(ctx, account) : null;
    })
    .mapHandle(async (ctx, username) => identifierOfName(ctx.data.db, username))
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      const account = await federatedAccount(ctx.data.db, identifier);
      return account ? actorKeyPairs(ctx.data.db, account.id) : [];
    });

  federation.setObjectDispatcher(Note, "/post/{id}", async (ctx, { id }) => {
    const post = await federatedPost(ctx.data.db, id);
    return post ? noteOf(ctx, post) : null;
  });

  federation
    .setOutboxDispatcher("/profile/{identifier}/outbox", async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const account = await federatedAccount(ctx.data.db, identifier);
      if (!account) return null;
      const page = await federatedPostsPage(ctx.data.db, account.id, cursor);
      if (!page) return null;
      return {
        items: page.items.map((post) => {
          const note = noteOf(ctx, post);
          return new Create({ id: new URL("#create", note.id!), actor: note.attributionId, to: PUBLIC_COLLECTION, object: note, published: note.published });
        }),
        nextCursor: page.next,
      };
    })
    .setFirstCursor(async (ctx, identifier) => ((await federatedAccount(ctx.data.db, identifier)) ? "" : null))
    .setCounter(async (ctx, identifier) => {
      const account = await federatedAccount(ctx.data.db, identifier);
      return account ? federatedPostsCount(ctx.data.db, account.id) : null;
    });

  // The followers collection: the remote people who follow the account (local followers are not the
  // fediverse's to list), paged by their account id.
  federation
    .setFollowersDispatcher("/profile/{identifier}/followers", async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const account = await federatedAccount(ctx.data.db, identifier);
      if (!account || !/^[0-9]{0,16}$/.test(cursor)) return null;
      const page = await remoteFollowers(ctx.data.db, account.id, cursor === "" ? 0 : Number(cursor), FOLLOWERS_PAGE);
      return { items: page.map((r) => r.recipient), nextCursor: page.length === FOLLOWERS_PAGE ? String(page[page.length - 1]!.accountId) : null };
    })
    .setFirstCursor(async (ctx, identifier) => ((await federatedAccount(ctx.data.db, identifier)) ? "" : null))
    .setCounter(async (ctx, identifier) => {
      const account = await federatedAccount(ctx.data.db, identifier);
      if (!account) return null;
      const [row] = await ctx.data.db.execute<{ n: number }>(sql`select count(*)::int as n from fediverse_followers where account_id = ${account.id}`);
      return row?.n ?? 0;
    });

  // The following collection: the remote people the account follows, paged by their account id.
  federation
    .setFollowingDispatcher("/profile/{identifier}/following", async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const account = await federatedAccount(ctx.data.db, identifier);
      if (!account || !/^[0-9]{0,16}$/.test(cursor)) return null;
      const rows = await ctx.data.db.execute<{ target_id: string; uri: string }>(sql`
        select f.target_id, r.uri from fediverse_following f join remote_actors r on r.account_id = f.target_id
        where f.account_id = ${account.id} and f.accepted_at is not null and f.target_id > ${cursor === "" ? 0 : Number(cursor)}
        order by f.target_id limit ${FOLLOWERS_PAGE}`);
      return { items: rows.map((r) => new URL(r.uri)), nextCursor: rows.length === FOLLOWERS_PAGE ? rows[rows.length - 1]!.target_id : null };
    })
    .setFirstCursor(async (ctx, identifier) => ((await federatedAccount(ctx.data.db, identifier)) ? "" : null))
    .setCounter(async (ctx, identifier) => {
      const account = await federatedAccount(ctx.data.db, identifier);
      if (!account) return null;
      const [row] = await ctx.data.db.execute<{ n: number }>(sql`
        select count(*)::int as n from fediverse_following where account_id = ${account.id} and accepted_at is not null`);
      return row?.n ?? 0;
    });

  // Every incoming activity is signature-checked by Fedify before any listener runs (an unknown or refused
  // signature is 401); each listener then checks that the activity's actor is the one its object names.
  federation
    .setInboxListeners("/profile/{identifier}/inbox", "/inbox")
    .on(Follow, async (ctx, follow) => {
      const { db } = ctx.data;
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== "actor") return;
      const local = await federatedAccount(db, target.identifier);
      if (!local) return;
      const actor = await follow.getActor(ctx);
      if (!isActor(actor) || actor.id?.href !== follow.actorId.href) return;
      const remote = await upsertRemoteActor(db, actor);
      if (!remote) return;
      let accepted = true;
      try {
        await subscribeToAccount({ ctx: remoteCtx(db, remote.accountId, follow.id), input: { id: local.id } });
      } catch (err) {
        // Following already (a Follow sent again): accepted again. Refused (a block): rejected.
        if (err instanceof ConflictError) accepted = true;
        else if (err instanceof ServiceError) accepted = false;
        else throw err;
      }
      // Its id is what a later Reject of ours (a removal, a block) names.
      if (accepted && follow.id.href.length <= 2048) {
        await db.execute(sql`
          update fediverse_followers set activity_id = ${follow.id.href} where account_id = ${local.id} and follower_id = ${remote.accountId}`);
      }
      const actorUri = ctx.getActorUri(target.identifier);
      const Reply = accepted ? Accept : Reject;
      await ctx.sendActivity({ identifier: target.identifier }, actor, new Reply({ id: new URL(`#${accepted ? "accepts" : "rejects"}/${crypto.randomUUID()}`, actorUri), actor: actorUri, object: follow }));
    })
    .on(Undo, async (ctx, undo) => {
      const { db } = ctx.data;
      const object = await undo.getObject(ctx);
      if (!undo.actorId || object?.id === undefined) return;
      if (object instanceof Like || object instanceof EmojiReact || object instanceof Announce) {
        if (object.actorId?.href !== undo.actorId.href) return;
        const remote = await remoteActorByUri(db, undo.actorId);
        if (!remote) return;
        const rctx = remoteCtx(db, remote.accountId, undo.id);
        if (object instanceof Announce) {
          if (object.id) await refusedQuietly("undo announce", () => deleteRemotePost({ ctx: rctx, uri: object.id!.href }));
          return;
        }
        const postId = ownPublicPost(ctx, object.objectId);
        if (postId) await refusedQuietly("undo like", () => removePostReaction({ ctx: rctx, input: { id: postId } }));
        return;
      }
      if (!(object instanceof Follow) || object.actorId?.href !== undo.actorId.href) return;
      const target = ctx.parseUri(object.objectId);
      if (target?.type !== "actor" || !/^[1-9][0-9]{0,15}$/.test(target.identifier)) return;
      const remote = await remoteActorByUri(db, undo.actorId);
      if (!remote) return;
      const [side] = await db.execute<{ status_code: string }>(sql`
        select status_code from friendships where account_id = ${remote.accountId} and friend_id = ${Number(target.identifier)}`);
      // FRIEND is a mutual follow here (docs/adr/0180): the Undo ends their half and leaves ours.
      if (side?.status_code !== "SUBSCRIBED" && side?.status_code !== "FRIEND") return;
      await refusedQuietly("undo follow", () => removeFriendRelation({ ctx: remoteCtx(db, remote.accountId, undo.id), input: { id: Number(target.identifier) } }));
    })
    // The peer's answer to a Follow of ours names it by its id (the common servers embed it): matched by that id
    // and by who answers, never fetched.
    .on(Accept, async (ctx, accept) => {
      const { db } = ctx.data;
      const followId = ownFollowId(accept.objectId, origin);
      const remote = followId ? await remoteActorByUri(db, accept.actorId) : null;
      if (!followId || !remote) return;
      await db.execute(sql`
        update fediverse_following set accepted_at = coalesce(accepted_at, now()) where activity_id = ${followId} and target_id = ${remote.accountId}`);
    })
    // A Reject names our Follow by its id, or (a server that kept no id) embeds a Follow of one of ours.
    .on(Reject, async (ctx, reject) => {
      const { db } = ctx.data;
      const remote = await remoteActorByUri(db, reject.actorId);
      if (!remote) return;
      const followId = ownFollowId(reject.objectId, origin);
      let row: { account_id: string } | undefined;
      if (followId) {
        [row] = await db.execute<{ account_id: string }>(sql`
          select account_id from fediverse_following where activity_id = ${followId} and target_id = ${remote.accountId}`);
      } else if (!reject.objectId) {
        const follow = await reject.getObject(ctx);
        const follower = follow instanceof Follow && follow.objectId?.href === remote.uri ? ctx.parseUri(follow.actorId) : null;
        if (follower?.type === "actor" && /^[1-9][0-9]{0,15}$/.test(follower.identifier)) {
          [row] = await db.execute<{ account_id: string }>(sql`
            select account_id from fediverse_following where account_id = ${Number(follower.identifier)} and target_id = ${remote.accountId}`);
        }
      }
      if (!row) return;
      const localId = Number(row.account_id);
      await refusedQuietly("follow rejected", () =>
        removeFriendRelation({ ctx: { viewer: { ...remoteViewer(localId), sessionId: "fediverse" }, db, requestId: "fediverse:reject" }, input: { id: remote.accountId } }),
      );
    })
    .on(Create, async (ctx, create) => {
      const { db } = ctx.data;
      const note = await create.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !create.actorId || note.attributionId?.href !== create.actorId.href) return;
      // Only what is public comes in: direct and followers-only Notes never (no messages over ActivityPub).
      if (!isPublicNote(note)) return;
      if (note.replyTargetId) {
        // A reply to a post (or a comment) of ours, or of a post from the fediverse that is here: a comment.
        const at = await replyTarget(ctx, db, note.replyTargetId);
        if (!at) return;
        const actor = await create.getActor(ctx);
        const author = isActor(actor) && actor.id?.href === create.actorId.href ? await upsertRemoteActor(db, actor) : null;
        if (!author) return;
        const text = remoteHtmlText(note.content?.toString(), COMMENT_TEXT_MAX);
        if (!text) return;
        await refusedQuietly("reply", () => storeRemoteComment({ ctx: remoteCtx(db, author.accountId, create.id), input: { ...at, uri: note.id!.href, text } }));
        return;
      }
      const author = await remoteActorByUri(db, create.actorId);
      if (!author || !(await followedHere(db, author.accountId))) return;
      // Its first image, fetched and stored here (never hotlinked); a Note without text but with one is kept.
      const imagePath = await importRemoteImage(db, author.accountId, await firstImageUrl(note), { allowPrivate: allowPrivateAddress });
      const tags = await noteTags(note);
      await refusedQuietly("create note", () =>
        storeRemotePost({ ctx: remoteCtx(db, author.accountId, create.id), input: { uri: note.id!.href, postText: note.content?.toString() ?? "", imagePath, tags } }),
      );
    })
    // A Like (a heart, or an emoji where the server puts one in its content) and an emoji reaction of one
    // of our public posts: the remote person's reaction, through the reactions service.
    .on(Like, (ctx, like) => reactFromRemote(ctx, like))
    .on(EmojiReact, (ctx, react) => reactFromRemote(ctx, react))
    // An Announce of one of our public posts: a repost by the remote person, known by the Announce's id.
    .on(Announce, async (ctx, announce) => {
      const { db } = ctx.data;
      const postId = ownPublicPost(ctx, announce.objectId);
      if (!postId || !announce.id || !announce.actorId || !(await federatedPost(db, String(postId)))) return;
      const actor = await announce.getActor(ctx);
      const author = isActor(actor) && actor.id?.href === announce.actorId.href ? await upsertRemoteActor(db, actor) : null;
      if (!author || announce.id.href.length > 2048) return;
      const uri = announce.id.href;
      await refusedQuietly("announce", () =>
        db.transaction(async (tx) => {
          const [known] = await tx.execute(sql`select 1 from remote_posts where uri = ${uri}`);
          if (known) return;
          const repost = await repostPost({ ctx: { ...remoteCtx(db, author.accountId, announce.id), tx }, input: { id: postId, body: {} } });
          await tx.execute(sql`insert into remote_posts (post_id, uri) values (${repost.id}, ${uri}) on conflict do nothing`);
        }),
      );
    })
    .on(Update, async (ctx, update) => {
      const { db } = ctx.data;
      const object = await update.getObject(ctx);
      if (!update.actorId) return;
      if (isActor(object)) {
        // A profile's change: name, about, addresses.
        if (object.id?.href === update.actorId.href && (await remoteActorByUri(db, object.id))) await upsertRemoteActor(db, object);
        return;
      }
      if (!(object instanceof Note) || !object.id || object.attributionId?.href !== update.actorId.href) return;
      const author = await remoteActorByUri(db, update.actorId);
      if (!author) return;
      if (object.replyTargetId) {
        const text = remoteHtmlText(object.content?.toString(), COMMENT_TEXT_MAX);
        if (text) await refusedQuietly("update reply", () => editRemoteComment({ ctx: remoteCtx(db, author.accountId, update.id), input: { uri: object.id!.href, text } }));
        return;
      }
      await refusedQuietly("update note", () =>
        editRemotePost({ ctx: remoteCtx(db, author.accountId, update.id), input: { uri: object.id!.href, postText: object.content?.toString() ?? "" } }),
      );
    })
    .on(Delete, async (ctx, del) => {
      const { db } = ctx.data;
      const objectId = del.objectId;
      const author = objectId ? await remoteActorByUri(db, del.actorId) : null;
      if (!objectId || !author || objectId.origin !== new URL(author.uri).origin) return;
      const rctx = remoteCtx(db, author.accountId, del.id);
      // The actor itself is gone (deleted there, or no longer federating): its relations here end and its
      // account is deleted, which hides its posts and comments everywhere.
      if (objectId.href === author.uri) {
        const relations = await db.execute<{ friend_id: string }>(sql`select friend_id from friendships where account_id = ${author.accountId}`);
        for (const r of relations) await refusedQuietly("actor gone", () => removeFriendRelation({ ctx: rctx, input: { id: Number(r.friend_id) } }));
        await db.execute(sql`update accounts set is_deleted = true, deletion_timestamp = now(), updated_at = now() where id = ${author.accountId} and not is_deleted`);
        return;
      }
      await refusedQuietly("delete note", async () => {
        if (!(await deleteRemotePost({ ctx: rctx, uri: objectId.href }))) await deleteRemoteComment({ ctx: rctx, uri: objectId.href });
      });
    })
    .onError((_ctx, error) => log.warn({ err: error }, "fediverse: inbox listener failed"));

  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async (ctx) => nodeInfo(ctx.data.db));

  return { federation, db, sql: pg, origin, allowPrivateAddress };
}

/** The id of a public post of ours that `url` names (its Note's URL), or null. */
function ownPublicPost(ctx: Context<FederationData>, url: URL | null): number | null {
  const parsed = ctx.parseUri(url);
  if (parsed?.type !== "object" || parsed.class !== Note) return null;
  const id = parsed.values.id;
  return id && /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : null;
}

/**
 * Where a reply goes: under a public post of ours or a comment beneath one (by their URLs), or under a post
 * or comment from the fediverse that is here (by its Note's id). Null for anything else.
 */
async function replyTarget(ctx: Context<FederationData>, db: DbOrTx, url: URL): Promise<{ postId: number; parentId: number | null } | null> {
  if (url.href.length > 2048) return null;
  if (url.origin === new URL(ctx.canonicalOrigin).origin) {
    const postId = ownPublicPost(ctx, url);
    if (postId) return (await federatedPost(db, String(postId))) ? { postId, parentId: null } : null;
    const comment = /^\/post\/([1-9][0-9]{0,15})\/comments\/([1-9][0-9]{0,15})$/.exec(url.pathname);
    if (!comment) return null;
    const [row] = await db.execute<{ ok: boolean }>(sql`
      select true as ok from comments c where c.id = ${Number(comment[2])} and c.post_id = ${Number(comment[1])} and not c.is_deleted`);
    const open = (await federatedPost(db, comment[1]!)) || (await db.execute(sql`select 1 from remote_posts where post_id = ${Number(comment[1])}`)).length > 0;
    return row && open ? { postId: Number(comment[1]), parentId: Number(comment[2]) } : null;
  }
  const [post] = await db.execute<{ post_id: string }>(sql`
    select r.post_id from remote_posts r join posts p on p.id = r.post_id where r.uri = ${url.href} and p.repost_of_id is null and not p.is_deleted`);
  if (post) return { postId: Number(post.post_id), parentId: null };
  const [comment] = await db.execute<{ id: string; post_id: string }>(sql`
    select c.id, c.post_id from remote_comments r join comments c on c.id = r.comment_id where r.uri = ${url.href} and not c.is_deleted`);
  return comment ? { postId: Number(comment.post_id), parentId: Number(comment.id) } : null;
}

/** A remote reaction to a public post of ours, as the remote person's reaction (one of Krug's, else none). */
async function reactFromRemote(ctx: Context<FederationData>, activity: Like | EmojiReact): Promise<void> {
  const { db } = ctx.data;
  const postId = ownPublicPost(ctx, activity.objectId);
  const reaction = reactionOfRemote(activity.content?.toString());
  if (!postId || !reaction || !activity.actorId || !(await federatedPost(db, String(postId)))) return;
  const actor = await activity.getActor(ctx);
  const author = isActor(actor) && actor.id?.href === activity.actorId.href ? await upsertRemoteActor(db, actor) : null;
  if (!author) return;
  await refusedQuietly("reaction", () => setPostReaction({ ctx: remoteCtx(db, author.accountId, activity.id), input: { id: postId, body: { type: "POST", reactionType: reaction } } }));
}

/** A Note's hashtags as Krug's tags: normalised as a post's (at most 10 characters), distinct, at most POST_TAGS_MAX. */
async function noteTags(note: Note): Promise<string[]> {
  const names: string[] = [];
  const seen = new Set<string>();
  try {
    for await (const tag of note.getTags({ suppressError: true, documentLoader: refuseFetch })) {
      if (!(tag instanceof Hashtag) || names.length >= POST_TAGS_MAX) continue;
      const name = normalizeTagName((tag.name?.toString() ?? "").replace(/^#/, "").slice(0, 100));
      if (name && !seen.has(tagKey(name))) {
        seen.add(tagKey(name));
        names.push(name);
      }
    }
  } catch {
    return names;
  }
  return names;
}

/** The URL of a Note's first image attachment (an Image, or a Document of an image type), read without fetching. */
async function firstImageUrl(note: Note): Promise<string | null> {
  try {
    for await (const attachment of note.getAttachments({ suppressError: true, documentLoader: refuseFetch })) {
      if (!(attachment instanceof Image || attachment instanceof Document)) continue;
      if (attachment instanceof Document && !/^image\//.test(attachment.mediaType ?? "")) continue;
      const url = attachment.url instanceof URL ? attachment.url : (attachment.url?.href ?? null);
      if (url) return url.href;
    }
  } catch {
    return null;
  }
  return null;
}

const FOLLOWERS_PAGE = 100;

type FollowerRow = { accountId: number; recipient: Recipient };
type Recipient = { id: URL; inboxId: URL; endpoints: { sharedInbox: URL | null } | null };

/** The remote followers of an account after `afterId` (their account ids ascending), as recipients. */
async function remoteFollowers(db: DbOrTx, accountId: number, afterId: number, limit: number | null): Promise<FollowerRow[]> {
  const rows = await db.execute<{ follower_id: string; uri: string; inbox: string; shared_inbox: string | null }>(sql`
    select f.follower_id, r.uri, r.inbox, r.shared_inbox
    from fediverse_followers f join remote_actors r on r.account_id = f.follower_id
    join accounts a on a.id = f.follower_id and not a.is_blocked and not a.is_deleted
    where f.account_id = ${accountId} and f.follower_id > ${afterId}
    order by f.follower_id ${limit === null ? sql`` : sql`limit ${limit}`}`);
  return rows.map((r) => ({
    accountId: Number(r.follower_id),
    recipient: { id: new URL(r.uri), inboxId: new URL(r.inbox), endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null },
  }));
}

/** Whether any local person follows this remote one: only then are their posts taken in. */
async function followedHere(db: DbOrTx, remoteId: number): Promise<boolean> {
  const [row] = await db.execute<{ yes: boolean }>(sql`select exists (select 1 from fediverse_following where target_id = ${remoteId}) as yes`);
  return row?.yes === true;
}

type OutboxRow = { id: string; kind: string; account_id: string; post_id: string | null; target_id: string | null; comment_id: string | null; activity_id: string | null };

/**
 * The relay (docs/adr/0174): takes up to `limit` rows of `fediverse_outbox` (each taken once, whatever
 * the number of relays running) and hands each to Fedify's queue as an activity signed by its account. A
 * row that can no longer be said (the post is gone, the account stopped federating) is dropped. Returns
 * how many rows it took.
 */
export async function drainFediverseOutbox(instance: KrugFederation, limit = 100): Promise<number> {
  const { db, federation, origin } = instance;
  const ctx = federation.createContext(new URL(origin), { db });
  return db.transaction(async (tx) => {
    const rows = await tx.execute<OutboxRow>(sql`
      delete from fediverse_outbox where id in (select id from fediverse_outbox order by id limit ${limit} for update skip locked)
      returning id, kind, account_id, post_id, target_id, comment_id, activity_id`);
    for (const row of [...rows].sort((a, b) => Number(a.id) - Number(b.id))) {
      try {
        // Each row in a savepoint of its own: one that fails is dropped alone, never the batch (a row that
        // failed every time would otherwise hold the outbox).
        await tx.transaction((sp) => relayOne(ctx, sp, row, { allowPrivate: instance.allowPrivateAddress }));
      } catch (err) {
        log.warn({ err, kind: row.kind, accountId: row.account_id }, "fediverse: an outbox row could not be sent");
      }
    }
    return rows.length;
  });
}

/** A remote account's inbox as a recipient (its shared inbox where it has one and `shared` is asked). */
async function remoteRecipient(db: DbOrTx, accountId: number | string | null): Promise<Recipient | null> {
  if (accountId === null) return null;
  // Never to anyone blocked here (a person, or everyone of a blocked server).
  const [target] = await db.execute<{ uri: string; inbox: string; shared_inbox: string | null }>(sql`
    select r.uri, r.inbox, r.shared_inbox from remote_actors r join accounts a on a.id = r.account_id
    where r.account_id = ${Number(accountId)} and not a.is_blocked`);
  return target ? { id: new URL(target.uri), inboxId: new URL(target.inbox), endpoints: target.shared_inbox ? { sharedInbox: new URL(target.shared_inbox) } : null } : null;
}

/** The Note a post stands for: a remote post's own id, a local public post's URL; null for anything else. */
async function noteUriOf(ctx: Context<FederationData>, db: DbOrTx, postId: string): Promise<{ uri: URL; authorId: string; remote: boolean } | null> {
  const [row] = await db.execute<{ uri: string | null; author_id: string; repost: boolean }>(sql`
    select r.uri, p.author_id, p.repost_of_id is not null as repost from posts p left join remote_posts r on r.post_id = p.id where p.id = ${Number(postId)}`);
  if (!row || row.repost) return null;
  if (row.uri) return { uri: new URL(row.uri), authorId: row.author_id, remote: true };
  return (await federatedPost(db, postId)) ? { uri: ctx.getObjectUri(Note, { id: postId }), authorId: row.author_id, remote: false } : null;
}

/**
 * A comment's own URI, beneath its post's: its Note is sent embedded in its Create, and the URI answers it to
 * the fediverse (`commentNoteDocument`) and leads a browser to the comment under its post.
 */
const commentUri = (ctx: Context<FederationData>, postId: string, commentId: string) => new URL(`/post/${postId}/comments/${commentId}`, `${ctx.canonicalOrigin}/`);

/**
 * The Note of a reply written here (a comment of a federating person under a post of another server that is
 * here, or under a public post of ours that federates), or null for any other comment: one of another
 * server, a deleted one, one under a post that never left this server.
 */
async function commentNote(
  ctx: Context<FederationData>,
  db: DbOrTx,
  postId: string,
  commentId: string,
  known?: { note: { uri: URL; authorId: string }; author: Recipient; identifier: string },
): Promise<Note | null> {
  if (!/^[1-9][0-9]{0,15}$/.test(postId) || !/^[1-9][0-9]{0,15}$/.test(commentId)) return null;
  const [comment] = await db.execute<{ comment_text: string; parent_uri: string | null; time: string; author_id: string }>(sql`
    select c.comment_text, c.time, c.author_id, (select rc.uri from remote_comments rc where rc.comment_id = c.parent_id) as parent_uri
    from comments c where c.id = ${Number(commentId)} and c.post_id = ${Number(postId)} and not c.is_deleted
      and not exists (select 1 from remote_comments rc where rc.comment_id = c.id)`);
  if (!comment) return null;
  const note = known?.note ?? (await noteUriOf(ctx, db, postId));
  const identifier = known?.identifier ?? comment.author_id;
  if (!note || identifier !== comment.author_id || !(known || (await federatedAccount(db, identifier)))) return null;
  const author = known?.author ?? (note.authorId === comment.author_id ? null : await remoteRecipient(db, note.authorId));
  return new Note({
    id: commentUri(ctx, postId, commentId),
    attribution: ctx.getActorUri(identifier),
    to: PUBLIC_COLLECTION,
    ccs: [...(author ? [author.id] : []), ctx.getFollowersUri(identifier)],
    replyTarget: comment.parent_uri ? new URL(comment.parent_uri) : note.uri,
    content: textHtml(comment.comment_text),
    url: new URL(`/post/${postId}#comment-${commentId}`, `${ctx.canonicalOrigin}/`),
    published: Temporal.Instant.fromEpochMilliseconds(new Date(comment.time).getTime()),
  });
}

/**
 * `GET /post/{id}/comments/{commentId}` asked for as ActivityPub: the reply's Note as JSON-LD, or null (the
 * page answers). Fedify dispatches one path per object class and Notes of posts have `/post/{id}`, so the
 * comment's document is made here, with Fedify's vocabulary and its JSON-LD serialisation.
 */
export async function commentNoteDocument(instance: KrugFederation, postId: string, commentId: string): Promise<Response | null> {
  const ctx = instance.federation.createContext(new URL(`${instance.origin}/`), { db: instance.db });
  const note = await commentNote(ctx, instance.db, postId, commentId);
  if (!note) return null;
  const json = await note.toJsonLd({ contextLoader: ctx.contextLoader, format: "compact" });
  return new Response(JSON.stringify(json), { headers: { "content-type": "application/activity+json", vary: "Accept" } });
}

async function relayOne(ctx: Context<FederationData>, db: DbOrTx, row: OutboxRow, media: MediaFetchOptions): Promise<void> {
  const identifier = row.account_id;
  const sender = { identifier };
  const actor = ctx.getActorUri(identifier);
  if (row.kind === "delete-actor") return leaveFediverse(ctx, db, identifier);
  if (row.kind === "fetch-avatar") return fetchAvatar(db, Number(identifier), media);
  if (row.kind === "fetch-profile") return fetchRemoteProfile(ctx, db, Number(identifier), media);
  if (!(await federatedAccount(db, identifier))) return;
  switch (row.kind) {
    case "follow":
    case "undo-follow":
    case "reject-follow": {
      const target = await remoteRecipient(db, row.target_id);
      if (!target) return;
      const recipient: Recipient = { ...target, endpoints: null };
      if (row.kind === "reject-follow") {
        const follow = new Follow({ id: row.activity_id ? new URL(row.activity_id) : null, actor: recipient.id, object: actor });
        await ctx.sendActivity(sender, recipient, new Reject({ id: new URL(`#rejects/${row.id}`, actor), actor, object: follow }));
        return;
      }
      const follow = new Follow({ id: new URL(`#follows/${row.activity_id}`, actor), actor, object: recipient.id });
      const activity = row.kind === "follow" ? follow : new Undo({ id: new URL(`#follows/${row.activity_id}/undo`, actor), actor, object: follow });
      await ctx.sendActivity(sender, recipient, activity);
      return;
    }
    case "like":
    case "unlike": {
      const note = row.post_id ? await noteUriOf(ctx, db, row.post_id) : null;
      const author = note?.remote ? await remoteRecipient(db, note.authorId) : null;
      if (!note || !author || !row.activity_id) return;
      const emoji = emojiOfReaction(row.activity_id);
      const id = new URL(`#likes/${row.post_id}/${row.activity_id}`, actor);
      // A heart is a Like; another reaction an emoji reaction (Misskey's and Pleroma's), its emoji as content.
      const like = row.activity_id === "heart" || !emoji ? new Like({ id, actor, object: note.uri }) : new EmojiReact({ id, actor, object: note.uri, content: emoji });
      await ctx.sendActivity(sender, author, row.kind === "like" ? like : new Undo({ id: new URL(`${id.hash}/undo`, id), actor, object: like }));
      return;
    }
    case "comment":
    case "delete-comment": {
      const note = row.post_id ? await noteUriOf(ctx, db, row.post_id) : null;
      const author = note?.remote ? await remoteRecipient(db, note.authorId) : null;
      if (!note || !author || !row.comment_id || !row.post_id) return;
      const id = commentUri(ctx, row.post_id, row.comment_id);
      if (row.kind === "delete-comment") {
        await ctx.sendActivity(sender, author, new Delete({ id: new URL("#delete", id), actor, to: PUBLIC_COLLECTION, object: new Tombstone({ id }) }));
        return;
      }
      const reply = await commentNote(ctx, db, row.post_id, row.comment_id, { note, author, identifier });
      if (!reply) return;
      await ctx.sendActivity(sender, author, new Create({ id: new URL("#create", id), actor, to: PUBLIC_COLLECTION, ccs: reply.ccIds, object: reply }));
      return;
    }
    case "announce":
    case "unannounce": {
      const [repost] = await db.execute<{ repost_of_id: string | null }>(sql`select repost_of_id from posts where id = ${Number(row.post_id)}`);
      const original = repost?.repost_of_id ? await noteUriOf(ctx, db, repost.repost_of_id) : null;
      if (!original) return;
      const recipients = (await remoteFollowers(db, Number(identifier), 0, null)).map((r) => r.recipient);
      const originalAuthor = original.remote ? await remoteRecipient(db, original.authorId) : null;
      if (originalAuthor && !recipients.some((r) => r.id.href === originalAuthor.id.href)) recipients.push(originalAuthor);
      if (recipients.length === 0) return;
      const announce = new Announce({
        id: new URL(`/post/${row.post_id}#announce`, `${ctx.canonicalOrigin}/`),
        actor,
        to: PUBLIC_COLLECTION,
        cc: ctx.getFollowersUri(identifier),
        object: original.uri,
      });
      const activity = row.kind === "announce" ? announce : new Undo({ id: new URL(`/post/${row.post_id}#announce/undo`, `${ctx.canonicalOrigin}/`), actor, object: announce });
      await ctx.sendActivity(sender, recipients, activity, { preferSharedInbox: true });
      return;
    }
    case "update-actor": {
      const recipients = (await remoteFollowers(db, Number(identifier), 0, null)).map((r) => r.recipient);
      const account = await federatedAccount(db, identifier);
      if (recipients.length === 0 || !account) return;
      const person = await personOf(ctx, account);
      await ctx.sendActivity(sender, recipients, new Update({ id: new URL(`#update/${row.id}`, actor), actor, to: PUBLIC_COLLECTION, object: person }), { preferSharedInbox: true });
      return;
    }
    case "create":
    case "update":
    case "delete": {
      const recipients = (await remoteFollowers(db, Number(identifier), 0, null)).map((r) => r.recipient);
      if (recipients.length === 0 || row.post_id === null) return;
      const noteId = ctx.getObjectUri(Note, { id: row.post_id });
      let activity;
      if (row.kind === "delete") {
        activity = new Delete({ id: new URL(`#delete`, noteId), actor, to: PUBLIC_COLLECTION, object: new Tombstone({ id: noteId }) });
      } else {
        const post = await federatedPost(db, row.post_id);
        if (!post) return;
        const note = noteOf(ctx, post);
        activity =
          row.kind === "create"
            ? new Create({ id: new URL("#create", noteId), actor, to: PUBLIC_COLLECTION, cc: note.ccId, object: note, published: note.published })
            : new Update({ id: new URL(`#update/${row.id}`, noteId), actor, to: PUBLIC_COLLECTION, cc: note.ccId, object: note, updated: note.updated });
      }
      await ctx.sendActivity(sender, recipients, activity, { preferSharedInbox: true });
      return;
    }
  }
}

/**
 * An account that stopped federating (docs/adr/0174): unless it federates again by now, a Delete of its
 * actor goes to its remote followers and the remote people it follows — signed with its keys directly, as
 * its actor no longer answers — and then every relation across servers ends through the friends service
 * (whose own fediverse rows are then dropped by the relay: the account no longer speaks).
 */
async function leaveFediverse(ctx: Context<FederationData>, db: DbOrTx, identifier: string): Promise<void> {
  const [still] = await db.execute<{ on: boolean }>(sql`select fediverse and profile_visibility = 'ALL' and not is_deleted as on from accounts where id = ${Number(identifier)}`);
  if (!still || still.on) return;
  const accountId = Number(identifier);
  const peers = await db.execute<{ id: string; uri: string; inbox: string; shared_inbox: string | null }>(sql`
    select r.account_id as id, r.uri, r.inbox, r.shared_inbox from remote_actors r
    where not exists (select 1 from fediverse_blocked_servers s where s.host = r.host) and r.account_id in (select follower_id from fediverse_followers where account_id = ${accountId}
                           union select target_id from fediverse_following where account_id = ${accountId})`);
  const keys = await actorKeyPairs(db, accountId);
  const actor = ctx.getActorUri(identifier);
  if (peers.length > 0 && keys.length > 0) {
    const senders = keys.map((k, i) => ({ keyId: new URL(i === 0 ? "#main-key" : `#key-${i + 1}`, actor), privateKey: k.privateKey }));
    const recipients: Recipient[] = peers.map((p) => ({ id: new URL(p.uri), inboxId: new URL(p.inbox), endpoints: p.shared_inbox ? { sharedInbox: new URL(p.shared_inbox) } : null }));
    await ctx.sendActivity(senders, recipients, new Delete({ id: new URL(`#delete/${Date.now()}`, actor), actor, to: PUBLIC_COLLECTION, object: actor }), { preferSharedInbox: true });
  }
  const local = { viewer: { ...remoteViewer(accountId) }, db: db as Db, requestId: "fediverse:leave" };
  for (const peer of peers) {
    await refusedQuietly("leave", () => removeFriendRelation({ ctx: { ...local, tx: db as Tx }, input: { id: Number(peer.id) } }));
  }
}

/** A remote person's avatar, fetched and stored as their photo (unless it changed again meanwhile). */
async function fetchAvatar(db: DbOrTx, accountId: number, media: MediaFetchOptions): Promise<void> {
  const [row] = await db.execute<{ icon_url: string | null }>(sql`
    select r.icon_url from remote_actors r join accounts a on a.id = r.account_id where r.account_id = ${accountId} and not a.is_blocked and not a.is_deleted`);
  if (!row?.icon_url) return;
  const photo = await importRemoteImage(db, accountId, row.icon_url, media);
  if (photo) await db.execute(sql`update accounts set photo = ${photo}, updated_at = now() where id = ${accountId}`);
}

/** How many of a remote person's newest public posts are read when they are first met. */
export const RECENT_REMOTE_POSTS = 10;

/**
 * A remote person met for the first time (docs/adr/0174): their counts as their server states them, and
 * their newest public posts (at most RECENT_REMOTE_POSTS, from their outbox's first page) as posts of their
 * wall here — so their page shows who they are before anyone follows them. Through the same path as a
 * Create: sanitised, bounded, images stored here.
 */
async function fetchRemoteProfile(ctx: Context<FederationData>, db: DbOrTx, accountId: number, media: MediaFetchOptions): Promise<void> {
  const [row] = await db.execute<{ uri: string }>(sql`
    select r.uri from remote_actors r join accounts a on a.id = r.account_id where r.account_id = ${accountId} and not a.is_blocked and not a.is_deleted`);
  if (!row) return;
  const actor = await ctx.lookupObject(row.uri).catch(() => null);
  if (!isActor(actor) || actor.id?.href !== row.uri) return;
  const loader = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true };
  const [outbox, followers, following] = await Promise.all([
    actor.getOutbox(loader).catch(() => null),
    actor.getFollowers(loader).catch(() => null),
    actor.getFollowing(loader).catch(() => null),
  ]);
  const count = (n: number | null | undefined) => (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : null);
  await db.execute(sql`
    update remote_actors set followers_count = ${count(followers?.totalItems)}, following_count = ${count(following?.totalItems)},
      posts_count = ${count(outbox?.totalItems)} where account_id = ${accountId}`);
  if (!outbox) return;
  let read = 0;
  const notes: Note[] = [];
  for await (const item of traverseCollection(outbox, loader)) {
    if (++read > RECENT_REMOTE_POSTS * 3 || notes.length >= RECENT_REMOTE_POSTS) break;
    if (!(item instanceof Create) || item.actorId?.href !== row.uri) continue;
    const note = await item.getObject(loader).catch(() => null);
    if (note instanceof Note && note.id && note.attributionId?.href === row.uri && isPublicNote(note) && !note.replyTargetId) notes.push(note);
  }
  // Oldest first, so that their wall here keeps their order.
  for (const note of notes.reverse()) {
    const imagePath = await importRemoteImage(db, accountId, await firstImageUrl(note), media);
    const tags = await noteTags(note);
    await refusedQuietly("recent note", () =>
      storeRemotePost({
        ctx: { ...remoteCtx(db as Db, accountId, note.id), tx: db as Tx },
        input: { uri: note.id!.href, postText: note.content?.toString() ?? "", imagePath, tags },
        recent: true,
      }),
    );
  }
}

/** How long an outgoing request of the process may take to connect, to answer, and between two chunks of its body. */
export const OUTGOING_TIMEOUTS = { connectMs: 10_000, headersMs: 15_000, bodyMs: 15_000 } as const;

/**
 * Fedify delivers with the global fetch, which waits five minutes for a server that accepts the connection
 * and never answers: eight such servers held every worker, and everyone's delivery waited (docs/adr/0175).
 * The process's outgoing requests are bounded instead — a dead server costs one worker 15 s, its retry
 * comes later with back-off, and Fedify's circuit breaker stops trying it after repeated failures.
 */
export function boundOutgoingRequests(): void {
  setGlobalDispatcher(
    new Agent({ connect: { timeout: OUTGOING_TIMEOUTS.connectMs }, headersTimeout: OUTGOING_TIMEOUTS.headersMs, bodyTimeout: OUTGOING_TIMEOUTS.bodyMs }),
  );
}

/** The process's federation, made on first use (its database and origin are the process's). */
export function getFederation(): KrugFederation {
  const { PUBLIC_URL, FEDERATION_ALLOW_PRIVATE_ADDRESSES } = env();
  const key = `${process.env.DATABASE_URL}|${PUBLIC_URL}`;
  const cached = globalForFederation.__krugFederation;
  if (cached?.key === key) return cached.instance;
  const instance = createKrugFederation({ db: getDb(), sql: getSql(), origin: PUBLIC_URL, allowPrivateAddress: FEDERATION_ALLOW_PRIVATE_ADDRESSES });
  log.info({ origin: PUBLIC_URL }, "federation ready");
  globalForFederation.__krugFederation = { key, instance };
  return instance;
}

/**
 * The job process's share of federation: Fedify's queue (incoming activities, fan-outs, deliveries with
 * their retries) and the relay of `fediverse_outbox`, woken by the outbox's NOTIFY and every 10 s.
 * Both stop when `signal` aborts.
 */
export async function startFederationWorkers(instance: KrugFederation, signal: AbortSignal): Promise<void> {
  boundOutgoingRequests();
  void instance.federation.startQueue({ db: instance.db }, { signal }).catch((err: unknown) => log.error({ err }, "fediverse: queue stopped"));
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        while (!signal.aborted && (await drainFediverseOutbox(instance)) > 0);
      } while (again && !signal.aborted);
    } catch (err) {
      log.error({ err }, "fediverse: relay failed");
    } finally {
      running = false;
    }
  };
  const listening = await instance.sql.listen(FEDIVERSE_NOTIFY_CHANNEL, () => void run());
  const timer = setInterval(() => void run(), 10_000);
  signal.addEventListener("abort", () => {
    clearInterval(timer);
    void listening.unlisten().catch(() => {});
  });
  void run();
}


/**
 * A remote person by `@user@server`, `user@server` or their profile's URL (issue 43): looked up (WebFinger,
 * then the actor, each fetch bounded by Fedify's refusal of private addresses), and made or refreshed as an
 * account of ours. Null when the text names none of those, names this server, or nothing answers as a
 * person.
 */
export async function lookupRemoteAccount(instance: KrugFederation, query: string): Promise<RemoteActor | null> {
  const text = query.trim();
  if (text.length > 2048) return null;
  const own = new URL(instance.origin);
  let identifier: string;
  const handle = HANDLE.exec(text);
  if (handle) {
    if (handle[2]!.toLowerCase() === own.host.toLowerCase()) return null;
    identifier = `@${handle[1]}@${handle[2]}`;
  } else {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return null;
    }
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin === own.origin) return null;
    identifier = url.href;
  }
  // Nobody is looked up on a blocked server.
  const host = handle ? handle[2]!.toLowerCase() : new URL(identifier).host.toLowerCase();
  if (await isServerBlocked(instance.db, host)) return null;
  const ctx = instance.federation.createContext(own, { db: instance.db });
  let found: unknown = null;
  try {
    found = await ctx.lookupObject(identifier);
  } catch (err) {
    log.info({ err, identifier }, "fediverse: lookup failed");
  }
  return isActor(found) ? upsertRemoteActor(instance.db, found) : null;
}

/**
 * People search's fediverse side (issue 43): the account a typed address or profile URL names. Our own
 * addresses (`id5@host`, `name@host`, our profile URLs) are our people; a remote person already known and
 * fetched within a day is answered without the network; anyone else is looked up.
 */
export async function findPersonByAddress(query: string): Promise<{ accountId: number; handle: string | null } | null> {
  const instance = getFederation();
  const { db } = instance;
  const own = new URL(instance.origin);
  const text = query.trim();
  const handle = HANDLE.exec(text);
  if (handle && handle[2]!.toLowerCase() === own.host.toLowerCase()) {
    const local = /^id([1-9][0-9]{0,15})$/i.exec(handle[1]!)?.[1] ?? (await identifierOfName(db, handle[1]!));
    return local ? { accountId: Number(local), handle: null } : null;
  }
  if (!handle) {
    try {
      const url = new URL(text);
      if (url.origin === own.origin) {
        const local = /^\/profile\/([1-9][0-9]{0,15})$/.exec(url.pathname)?.[1] ?? (await identifierOfName(db, /^\/@([A-Za-z0-9_]{3,32})$/.exec(url.pathname)?.[1] ?? ""));
        return local ? { accountId: Number(local), handle: null } : null;
      }
    } catch {
      return null;
    }
  }
  const fresh = sql`r.fetched_at > now() - interval '1 day'`;
  const [known] = handle
    ? await db.execute<{ account_id: string; handle: string }>(sql`
        select r.account_id, r.handle from remote_actors r where lower(r.handle) = ${`${handle[1]}@${handle[2]}`.toLowerCase()} and ${fresh}`)
    : await db.execute<{ account_id: string; handle: string }>(sql`
        select r.account_id, r.handle from remote_actors r where r.uri = ${text} and ${fresh}`);
  if (known) return { accountId: Number(known.account_id), handle: known.handle };
  const found = await lookupRemoteAccount(instance, text);
  return found ? { accountId: found.accountId, handle: found.handle } : null;
}
