// Two Krug instances federate (issue 43, docs/adr/0174): a person of A follows a person of B by their
// profile's URL; B accepts; B's posts, edits and deletions reach A's follower's news feed; an unfollow and a
// block end it on both sides. Everything crosses real HTTP with real signatures and both instances' queues.
import { getKeyOwner, signRequest, verifyRequest } from "@fedify/fedify";
import { Person } from "@fedify/vocab";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/server/env";
import { lookupRemoteAccount } from "@/lib/server/federation/federation";
import { createComment, deleteComment } from "@/lib/server/services/comments/comments";
import { blockAccount, removeFriendRelation, sendFriendRequest, subscribeToAccount } from "@/lib/server/services/friends/actions";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { removePostReaction, setPostReaction } from "@/lib/server/services/posts/reactions";
import { getAccount } from "@/lib/server/services/accounts/get-account";
import { updateMyAccount } from "@/lib/server/services/accounts/update-account";
import { listBlockedServers, setServerBlocked } from "@/lib/server/services/admin/fediverse-servers";
import { updatePrivacySettings } from "@/lib/server/services/privacy/settings";
import { searchAccounts } from "@/lib/server/services/accounts/search-accounts";
import { listNewsPosts } from "@/lib/server/services/posts/list-posts";
import { createPost, deletePost, editPost, repostPost } from "@/lib/server/services/posts/write-posts";
import { drainTimelines } from "@/lib/server/services/posts/home-timeline";
import type { Db } from "@/db/client";
import { eventually, startPeer, type Peer } from "./helpers/federation-peers";

async function deleteCommentOf(ctx: Parameters<typeof deleteComment>[0]["ctx"], postId: number, id: number) {
  await deleteComment({ ctx, input: { postId, id } });
}

// People search looks remote people up through the process's own federation, which must reach 127.0.0.1 here.
vi.stubEnv("FEDERATION_ALLOW_PRIVATE_ADDRESSES", "1");
afterAll(() => vi.unstubAllEnvs());

/** An image stored on a peer as an upload of `accountId`: its path there. */
async function storeOn(peer: Peer, accountId: number, bytes: Buffer): Promise<string> {
  const key = `${randomBytes(16).toString("hex")}.webp`;
  await getBlobStore().put(key, await sharp(bytes).webp().toBuffer(), "image/webp");
  await peer.db.execute(sql`insert into uploads (key, account_id) values (${key}, ${accountId})`);
  return `/api/v1/storage/files/${key}`;
}

/** A person of A follows a remote account and waits for its server's Accept. */
async function followAndWait(person: { id: number; ctx: Parameters<typeof subscribeToAccount>[0]["ctx"] }, remoteId: number): Promise<void> {
  await subscribeToAccount({ ctx: person.ctx, input: { id: remoteId } });
  await eventually(
    () => one<{ accepted_at: string | null }>(a.db, sql`select accepted_at from fediverse_following where account_id = ${person.id} and target_id = ${remoteId}`).then((r) => r?.accepted_at),
    "the Accept",
  );
}

let a: Peer;
let b: Peer;

beforeAll(async () => {
  [a, b] = await Promise.all([startPeer(true), startPeer(false)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T | undefined> {
  return (await db.execute(query))[0] as T | undefined;
}

async function newsTitles(peer: Peer, ctx: Parameters<typeof listNewsPosts>[0]["ctx"]): Promise<string[]> {
  await drainTimelines(peer.db);
  const page = await listNewsPosts({ ctx, input: {} });
  return page.content.map((p) => p.postText);
}

describe("two Krug instances", () => {
  it("follow, accept, post, edit, delete, unfollow; a block rejects the follower", async () => {
    const anna = await a.person("Анна");
    const boris = await b.person("Борис");

    // Anna finds Boris in people search by his profile's URL: an account of A with his address; then by
    // his address, known by now (no network: WebFinger would ask over https).
    const found = await searchAccounts({ ctx: anna.ctx, input: { author: boris.profileUrl } });
    expect(found.content.map((p) => [p.firstName, p.lastName, p.fediverseAddress])).toEqual([["Борис", "Fedi", `id${boris.id}@${new URL(b.origin).host}`]]);
    const byAddress = await searchAccounts({ ctx: anna.ctx, input: { author: `@id${boris.id}@${new URL(b.origin).host}` } });
    expect(byAddress.content.map((p) => p.id)).toEqual([found.content[0]!.id]);
    // Anna's own address finds Anna; a name search never lists Boris.
    const mine = await searchAccounts({ ctx: anna.ctx, input: { author: `id${anna.id}@${new URL(env().PUBLIC_URL).host}` } });
    expect(mine.content.map((p) => p.id)).toEqual([anna.id]);
    expect((await searchAccounts({ ctx: anna.ctx, input: { author: "Борис Fedi" } })).content.map((p) => p.id)).not.toContain(found.content[0]!.id);
    const remoteBoris = await lookupRemoteAccount(a.instance, boris.profileUrl);
    expect(remoteBoris?.accountId).toBe(found.content[0]!.id);
    const profile = await getAccount({ ctx: anna.ctx, input: { id: remoteBoris!.accountId } });
    expect(profile.fediverseAddress).toBe(remoteBoris!.handle);
    expect(profile.remoteUrl).toBe(boris.profileUrl);
    expect(profile.canMessage).toBe(false);
    expect(remoteBoris).not.toBeNull();
    expect(remoteBoris!.handle).toBe(`id${boris.id}@${new URL(b.origin).host}`);
    expect(remoteBoris!.uri).toBe(boris.profileUrl);
    // Their display name is split as a local person's name is, so Russian texts decline it («Бориса Fedi»).
    const borisOnA = await one<{ first_name: string; last_name: string; searchable: boolean }>(a.db, sql`select first_name, last_name, searchable from accounts where id = ${remoteBoris!.accountId}`);
    expect(borisOnA).toEqual({ first_name: "Борис", last_name: "Fedi", searchable: false });

    // She follows him: a Follow goes out, B counts her among Boris's subscribers and accepts.
    await subscribeToAccount({ ctx: anna.ctx, input: { id: remoteBoris!.accountId } });
    const accepted = await eventually(
      () => one<{ accepted_at: string | null }>(a.db, sql`select accepted_at from fediverse_following where account_id = ${anna.id} and target_id = ${remoteBoris!.accountId}`).then((r) => r?.accepted_at),
      "B's Accept",
    );
    expect(Number.isNaN(Date.parse(accepted))).toBe(false);
    const annaOnB = await one<{ account_id: string; handle: string }>(b.db, sql`select account_id, handle from remote_actors where uri = ${anna.profileUrl}`);
    expect(annaOnB?.handle).toBe(`id${anna.id}@${new URL(a.origin).host}`);
    const side = await one<{ status_code: string }>(b.db, sql`select status_code from friendships where account_id = ${Number(annaOnB!.account_id)} and friend_id = ${boris.id}`);
    expect(side?.status_code).toBe("SUBSCRIBED");

    // Boris posts: the post reaches Anna's news feed on A, as a post of the remote Boris.
    const post = await createPost({ ctx: boris.ctx, input: { title: "Привет из B", postText: "<p>Первая запись через федерацию</p>", tags: ["горы", "Поход"] } });
    const arrived = await eventually(
      () => one<{ post_id: string }>(a.db, sql`select post_id from remote_posts where uri = ${`${b.origin}/post/${post.id}`}`),
      "the Create on A",
    );
    // Anna on B is a remote follower: nothing is written to a bell she can never read there.
    expect((await one<{ n: number }>(b.db, sql`select count(*)::int as n from notifications where receiver_id = ${Number(annaOnB!.account_id)}`))?.n).toBe(0);
    const stored = await one<{ author_id: string; post_text: string }>(a.db, sql`select author_id, post_text from posts where id = ${Number(arrived.post_id)}`);
    expect(Number(stored!.author_id)).toBe(remoteBoris!.accountId);
    expect(stored!.post_text).toContain("Привет из B");
    expect(stored!.post_text).toContain("Первая запись через федерацию");
    // Its tags came as hashtags and are its tags here.
    const tags = await a.db.execute<{ name: string }>(sql`
      select t.name from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = ${Number(arrived.post_id)} order by t.name`);
    expect(tags.map((t) => t.name)).toEqual(["Поход", "горы"].sort());
    expect((await newsTitles(a, anna.ctx)).some((t) => t.includes("Первая запись через федерацию"))).toBe(true);
    const inFeed = (await listNewsPosts({ ctx: anna.ctx, input: {} })).content.find((p) => p.id === Number(arrived.post_id));
    expect(inFeed?.author).toEqual({ id: remoteBoris!.accountId, firstName: "Борис", lastName: "Fedi", photo: null, fediverseAddress: remoteBoris!.handle });

    // He edits it: the text changes on A.
    await editPost({ ctx: boris.ctx, input: { id: post.id, title: "Привет из B", postText: "<p>Исправленная запись</p>" } });
    await eventually(
      () => one<{ post_text: string }>(a.db, sql`select post_text from posts where id = ${Number(arrived.post_id)}`).then((r) => r?.post_text.includes("Исправленная запись")),
      "the Update on A",
    );

    // He deletes it: it is deleted on A and leaves Anna's feed.
    await deletePost({ ctx: boris.ctx, input: { id: post.id } });
    await eventually(
      () => one<{ is_deleted: boolean }>(a.db, sql`select is_deleted from posts where id = ${Number(arrived.post_id)}`).then((r) => r?.is_deleted),
      "the Delete on A",
    );
    expect((await newsTitles(a, anna.ctx)).some((t) => t.includes("Исправленная запись"))).toBe(false);

    // Anna unfollows: B no longer counts her, and Boris's next post does not come to A.
    await removeFriendRelation({ ctx: anna.ctx, input: { id: remoteBoris!.accountId } });
    await eventually(
      () => one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${boris.id}`).then((r) => r?.n === 0),
      "the Undo on B",
    );
    expect(await one(b.db, sql`select 1 from friendships where account_id = ${Number(annaOnB!.account_id)} and friend_id = ${boris.id}`)).toBeUndefined();
    const outbox = await one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_outbox`);
    await createPost({ ctx: boris.ctx, input: { title: "Никому", postText: "<p>Эту запись некому отправить</p>" } });
    expect((await one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_outbox`))?.n).toBe(outbox?.n);

    // She follows again, and Boris blocks her: B rejects, and A ends her subscription.
    await subscribeToAccount({ ctx: anna.ctx, input: { id: remoteBoris!.accountId } });
    await eventually(
      () => one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${boris.id}`).then((r) => r?.n === 1),
      "the second Follow on B",
    );
    await blockAccount({ ctx: boris.ctx, input: { id: Number(annaOnB!.account_id) } });
    await eventually(
      () => one(a.db, sql`select 1 from friendships where account_id = ${anna.id} and friend_id = ${remoteBoris!.accountId}`).then((r) => r === undefined),
      "the Reject on A",
    );
    expect(await one(a.db, sql`select 1 from fediverse_following where account_id = ${anna.id}`)).toBeUndefined();
  }, 90_000);

  it("a follower followed back is a mutual follow (FRIEND across servers): posts go both ways, no messages, and either unfollow leaves the other's follow", async () => {
    const vera = await a.person("Вера");
    const gleb = await b.person("Глеб");
    const glebOnA = (await lookupRemoteAccount(a.instance, gleb.profileUrl))!;
    await followAndWait(vera, glebOnA.accountId);
    const veraOnB = (await one<{ account_id: string }>(b.db, sql`select account_id from remote_actors where uri = ${vera.profileUrl}`))!;
    const veraId = Number(veraOnB.account_id);

    // Gleb follows his follower back: the pair is FRIEND on B at once, his Follow reaches A, and A accepts it.
    await subscribeToAccount({ ctx: gleb.ctx, input: { id: veraId } });
    const sides = async (peer: Peer, x: number, y: number) =>
      (await peer.db.execute<{ s: string | null }>(sql`
        select (select status_code::text from friendships where account_id = ${x} and friend_id = ${y}) || '/' ||
               coalesce((select status_code::text from friendships where account_id = ${y} and friend_id = ${x}), '-') as s`))[0]!.s;
    expect(await sides(b, gleb.id, veraId)).toBe("FRIEND/FRIEND");
    await eventually(() => sides(a, vera.id, glebOnA.accountId).then((s) => s === "FRIEND/FRIEND"), "Gleb's Follow on A");
    await eventually(
      () => one<{ accepted_at: string | null }>(b.db, sql`select accepted_at from fediverse_following where account_id = ${gleb.id} and target_id = ${veraId}`).then((r) => r?.accepted_at),
      "A's Accept on B",
    );
    expect((await one<{ n: number }>(a.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${vera.id}`))?.n).toBe(1);

    // Posts go both ways now.
    const hers = await createPost({ ctx: vera.ctx, input: { title: "От Веры", postText: "<p>Взаимная подписка работает</p>" } });
    await eventually(() => one(b.db, sql`select 1 from remote_posts where uri = ${`${a.origin}/post/${hers.id}`}`), "Vera's post on B");
    expect((await newsTitles(b, gleb.ctx)).some((t) => t.includes("Взаимная подписка работает"))).toBe(true);
    const his = await createPost({ ctx: gleb.ctx, input: { title: "От Глеба", postText: "<p>И в обратную сторону</p>" } });
    await eventually(() => one(a.db, sql`select 1 from remote_posts where uri = ${`${b.origin}/post/${his.id}`}`), "Gleb's post on A");

    // A mutual follower of another server takes no messages: no dialog, no group, nothing written.
    await expect(createDialog({ ctx: gleb.ctx, input: { recipientId: veraId } })).rejects.toMatchObject({ code: "forbidden", message: "chatErrors.remotePerson" });
    await expect(createDialog({ ctx: gleb.ctx, input: { title: "Беседа", memberIds: [veraId] } })).rejects.toMatchObject({ code: "forbidden", message: "chatErrors.remotePerson" });
    expect(await one(b.db, sql`select 1 from dialog_members where account_id = ${veraId}`)).toBeUndefined();
    const veraProfile = await getAccount({ ctx: gleb.ctx, input: { id: veraId } });
    expect([veraProfile.statusCode, veraProfile.canMessage, veraProfile.canRequestFriend]).toEqual(["FRIEND", false, false]);
    // Nor a friend request, which she could never answer.
    await expect(sendFriendRequest({ ctx: gleb.ctx, input: { id: veraId } })).rejects.toMatchObject({ code: "forbidden", message: "friendErrors.remoteFollowOnly" });

    // Gleb unfollows: his follow ends on both sides, hers stands.
    await removeFriendRelation({ ctx: gleb.ctx, input: { id: veraId } });
    expect(await sides(b, gleb.id, veraId)).toBe("WATCHING/SUBSCRIBED");
    await eventually(() => sides(a, vera.id, glebOnA.accountId).then((s) => s === "SUBSCRIBED/WATCHING"), "Gleb's Undo on A");
    expect((await one<{ n: number }>(a.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${vera.id}`))?.n).toBe(0);
    expect((await one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${gleb.id}`))?.n).toBe(1);

    // The other way round: he follows back again, then she unfollows — his follow stands.
    await subscribeToAccount({ ctx: gleb.ctx, input: { id: veraId } });
    await eventually(() => sides(a, vera.id, glebOnA.accountId).then((s) => s === "FRIEND/FRIEND"), "the second Follow on A");
    await removeFriendRelation({ ctx: vera.ctx, input: { id: glebOnA.accountId } });
    expect(await sides(a, vera.id, glebOnA.accountId)).toBe("WATCHING/SUBSCRIBED");
    await eventually(() => sides(b, gleb.id, veraId).then((s) => s === "SUBSCRIBED/WATCHING"), "Vera's Undo on B");
    expect((await one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${gleb.id}`))?.n).toBe(0);
    expect((await one<{ n: number }>(a.db, sql`select count(*)::int as n from fediverse_followers where account_id = ${vera.id}`))?.n).toBe(1);
  }, 90_000);

  it("a reply, reactions and a repost on a remote post reach its author's server, and their withdrawals too", async () => {
    const anna = await a.person("Ася");
    const boris = await b.person("Бронислав");
    const remoteBoris = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    await followAndWait(anna, remoteBoris.accountId);
    const post = await createPost({ ctx: boris.ctx, input: { title: "Вопрос", postText: "<p>Кто идёт в поход?</p>" } });
    const here = await eventually(
      () => one<{ post_id: string }>(a.db, sql`select post_id from remote_posts where uri = ${`${b.origin}/post/${post.id}`}`),
      "the Create on A",
    );
    const postOnA = Number(here.post_id);
    const annaOnB = Number((await one<{ account_id: string }>(b.db, sql`select account_id from remote_actors where uri = ${anna.profileUrl}`))!.account_id);

    // Her comment is a reply on B: a comment of hers under Boris's post, counted on the post.
    const comment = await createComment({ ctx: anna.ctx, input: { postId: postOnA, body: { commentText: "Я иду!\nВозьму палатку." } } });
    const reply = await eventually(
      () => one<{ id: string; comment_text: string }>(b.db, sql`select id, comment_text from comments where post_id = ${post.id} and author_id = ${annaOnB} and not is_deleted`),
      "the reply on B",
    );
    expect(reply.comment_text).toBe("Я иду!\nВозьму палатку.");
    expect((await one<{ comments_count: number }>(b.db, sql`select comments_count from posts where id = ${post.id}`))?.comments_count).toBe(1);
    // The reply's id is a document of its own: its Note to the fediverse, the comment under its post to a browser.
    const replyUri = `${a.origin}/post/${postOnA}/comments/${comment.id}`;
    expect((await one<{ uri: string }>(b.db, sql`select uri from remote_comments where comment_id = ${Number(reply.id)}`))?.uri).toBe(replyUri);
    const asked = await fetch(replyUri, { headers: { accept: "application/activity+json" } });
    expect(asked.status).toBe(200);
    expect(asked.headers.get("content-type")).toBe("application/activity+json");
    const doc = (await asked.json()) as Record<string, unknown>;
    expect([doc.type, doc.id, doc.attributedTo, doc.inReplyTo, doc.url]).toEqual(["Note", replyUri, anna.profileUrl, `${b.origin}/post/${post.id}`, `${a.origin}/post/${postOnA}#comment-${comment.id}`]);
    expect(doc.content).toBe("<p>Я иду!<br>Возьму палатку.</p>");
    // Another comment's id, one of another server, or a comment under another post: nothing.
    for (const path of [`/post/${postOnA}/comments/${comment.id + 1000}`, `/post/${postOnA + 1}/comments/${comment.id}`]) {
      expect((await fetch(`${a.origin}${path}`, { headers: { accept: "application/activity+json" } })).status).toBe(404);
    }

    // Her reactions: fire (an emoji reaction), then a heart (a Like) instead, then none.
    const reactionOnB = () => one<{ reaction_type: string }>(b.db, sql`select reaction_type from post_reactions where post_id = ${post.id} and account_id = ${annaOnB}`);
    await setPostReaction({ ctx: anna.ctx, input: { id: postOnA, body: { reactionType: "fire" } } });
    await eventually(() => reactionOnB().then((r) => r?.reaction_type === "fire"), "the fire on B");
    await setPostReaction({ ctx: anna.ctx, input: { id: postOnA, body: { reactionType: "heart" } } });
    await eventually(() => reactionOnB().then((r) => r?.reaction_type === "heart"), "the heart on B");
    expect((await one<{ like_amount: number }>(b.db, sql`select like_amount from posts where id = ${post.id}`))?.like_amount).toBe(1);
    await removePostReaction({ ctx: anna.ctx, input: { id: postOnA } });
    await eventually(() => reactionOnB().then((r) => r === undefined), "the Undo of the heart on B");

    // Her repost is an Announce: a repost of hers on B, gone again when she deletes hers.
    const repost = await repostPost({ ctx: anna.ctx, input: { id: postOnA, body: {} } });
    const shared = await eventually(
      () => one<{ id: string }>(b.db, sql`select id from posts where repost_of_id = ${post.id} and author_id = ${annaOnB} and not is_deleted`),
      "the Announce on B",
    );
    await deletePost({ ctx: anna.ctx, input: { id: repost.id } });
    await eventually(
      () => one<{ is_deleted: boolean }>(b.db, sql`select is_deleted from posts where id = ${Number(shared.id)}`).then((r) => r?.is_deleted),
      "the Undo of the Announce on B",
    );

    // She deletes her comment: the reply is deleted on B.
    await deleteCommentOf(anna.ctx, postOnA, comment.id);
    await eventually(
      () => one<{ is_deleted: boolean }>(b.db, sql`select is_deleted from comments where id = ${Number(reply.id)}`).then((r) => r?.is_deleted),
      "the Delete of the reply on B",
    );
    expect((await fetch(replyUri, { headers: { accept: "application/activity+json" } })).status).toBe(404);
  }, 90_000);

  it("switching the fediverse off deletes the actor there: the followers' subscriptions end on both sides", async () => {
    const anna = await a.person("Антонина");
    const boris = await b.person("Борислава");
    const remoteBoris = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    await followAndWait(anna, remoteBoris.accountId);
    await updatePrivacySettings({ ctx: boris.ctx, input: { fediverse: false } });
    await eventually(
      () => one<{ is_deleted: boolean }>(a.db, sql`select is_deleted from accounts where id = ${remoteBoris.accountId}`).then((r) => r?.is_deleted),
      "the actor's Delete on A",
    );
    expect(await one(a.db, sql`select 1 from friendships where account_id = ${anna.id} and friend_id = ${remoteBoris.accountId}`)).toBeUndefined();
    expect(await one(a.db, sql`select 1 from fediverse_following where account_id = ${anna.id}`)).toBeUndefined();
    await eventually(() => one<{ n: number }>(b.db, sql`select count(*)::int as n from friendships where friend_id = ${boris.id}`).then((r) => r?.n === 0), "B's side ended");
    expect(await one(b.db, sql`select 1 from fediverse_followers where account_id = ${boris.id}`)).toBeUndefined();
    // Their actor is unknown now: WebFinger and the profile as ActivityPub answer nothing.
    const res = await fetch(boris.profileUrl, { headers: { accept: "application/activity+json" } });
    expect(res.status).toBe(404);
  });

  it("an administrator blocks a whole server: its inbox traffic is refused, its people hidden and not looked up; unblocking lifts it (audited)", async () => {
    const anna = await a.person("Агата");
    const admin = await a.person("Админ");
    await a.db.execute(sql`update accounts set role = 'ADMIN' where id = ${admin.id}`);
    const adminCtx = { ...admin.ctx, viewer: { ...admin.viewer, role: "ADMIN" as const } };
    const boris = await b.person("Бажен");
    const remoteBoris = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    const host = new URL(b.origin).host;
    const forged = () =>
      fetch(`${a.origin}/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json", signature: `keyId="${boris.profileUrl}#main-key",algorithm="rsa-sha256",headers="(request-target)",signature="AAAA"` },
        body: JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", id: `${b.origin}/x#1`, type: "Like", actor: boris.profileUrl, object: `${a.origin}/post/1` }),
      });
    expect((await forged()).status).toBe(401); // a bad signature, read as usual

    // Only administrators; a host must be a host.
    await expect(setServerBlocked({ ctx: anna.ctx, input: { host }, blocked: true })).rejects.toMatchObject({ code: "forbidden" });
    await expect(setServerBlocked({ ctx: adminCtx, input: { host: "not a host/../x" }, blocked: true })).rejects.toMatchObject({ code: "validation_failed" });

    const known = (await one<{ n: number }>(a.db, sql`select count(*)::int as n from remote_actors where host = ${host}`))!.n;
    expect(known).toBeGreaterThan(0);
    expect(await setServerBlocked({ ctx: adminCtx, input: { host: host.toUpperCase(), body: { reason: "Спам" } }, blocked: true })).toEqual({ host, blocked: true, accounts: known });
    expect((await forged()).status).toBe(403);
    expect((await one<{ is_blocked: boolean }>(a.db, sql`select is_blocked from accounts where id = ${remoteBoris.accountId}`))?.is_blocked).toBe(true);
    expect(await lookupRemoteAccount(a.instance, `${b.origin}/profile/${(await b.person("Новый")).id}`)).toBeNull();
    const audit = await one<{ action: string; reason: string; details: { host: string; accounts: number } }>(a.db, sql`
      select action, reason, details from audit_log where target_type = 'SERVER' order by id desc limit 1`);
    expect(audit).toEqual({ action: "SERVER_BLOCKED", reason: "Спам", details: { host, accounts: known } });
    const listed = await listBlockedServers({ ctx: adminCtx, input: {} });
    expect(listed.content.map((s) => [s.host, s.reason, s.accounts])).toEqual([[host, "Спам", known]]);
    // Blocking again changes nothing and records nothing.
    await setServerBlocked({ ctx: adminCtx, input: { host }, blocked: true });
    expect((await one<{ n: number }>(a.db, sql`select count(*)::int as n from audit_log where target_type = 'SERVER'`))?.n).toBe(1);

    await setServerBlocked({ ctx: adminCtx, input: { host }, blocked: false });
    expect((await forged()).status).toBe(401);
    expect((await one<{ is_blocked: boolean }>(a.db, sql`select is_blocked from accounts where id = ${remoteBoris.accountId}`))?.is_blocked).toBe(false);
    expect((await one<{ action: string }>(a.db, sql`select action from audit_log where target_type = 'SERVER' order by id desc limit 1`))?.action).toBe("SERVER_UNBLOCKED");
  });

  it("Fedify's own checks pass on what Krug serves: the actor and the key it owns, its collections, a signature", async () => {
    const boris = await b.person("Богумил");
    const ctx = a.instance.federation.createContext(new URL(a.origin), { db: a.db });
    const loader = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
    const actor = await ctx.lookupObject(boris.profileUrl);
    expect(actor).toBeInstanceOf(Person);
    const person = actor as Person;
    const key = await person.getPublicKey(loader);
    expect(key?.ownerId?.href).toBe(boris.profileUrl);
    expect((await getKeyOwner(key!.id!, loader))?.id?.href).toBe(boris.profileUrl);
    const outbox = await person.getOutbox(loader);
    const followers = await person.getFollowers(loader);
    expect(outbox?.totalItems).toBe(0);
    expect(followers?.totalItems).toBe(0);
    expect((await person.getFollowing(loader))?.totalItems).toBe(0);
    expect(person.endpoints?.sharedInbox?.href).toBe(`${b.origin}/inbox`);

    // A request signed with Fedify's own signRequest and the actor's key verifies; a changed body does not.
    const bctx = b.instance.federation.createContext(new URL(b.origin), { db: b.db });
    const [pair] = await bctx.getActorKeyPairs(String(boris.id));
    const request = new Request(`${a.origin}/inbox`, { method: "POST", headers: { "content-type": "application/activity+json" }, body: '{"type":"Like"}' });
    const signed = await signRequest(request, pair!.privateKey, pair!.keyId);
    expect((await verifyRequest(signed.clone(), loader))?.id?.href).toBe(pair!.keyId.href);
    const tampered = new Request(signed.url, { method: "POST", headers: signed.headers, body: '{"type":"Follow"}' });
    expect(await verifyRequest(tampered, loader)).toBeNull();
  });

  it("a remote avatar and a Note's image are fetched once and stored here, never hotlinked", async () => {
    const anna = await a.person("Алиса");
    const boris = await b.person("Борис-фото");
    // Boris's photo and a post with an image, stored on B as uploads are.
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    const photo = await storeOn(b, boris.id, png);
    await b.db.execute(sql`update accounts set photo = ${photo} where id = ${boris.id}`);
    const remoteBoris = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    const avatar = await eventually(
      () => one<{ photo: string | null }>(a.db, sql`select photo from accounts where id = ${remoteBoris.accountId}`).then((r) => r?.photo),
      "the avatar stored on A",
    );
    expect(avatar).toMatch(/^\/api\/v1\/storage\/files\/[0-9a-f]{32}\.webp$/);
    expect(avatar).not.toBe(photo);
    expect((await one<{ account_id: string }>(a.db, sql`select account_id from uploads where key = ${avatar.split("/").pop()!}`))?.account_id).toBe(String(remoteBoris.accountId));

    await followAndWait(anna, remoteBoris.accountId);
    const picture = await storeOn(b, boris.id, png);
    const post = await createPost({ ctx: boris.ctx, input: { title: "Фото", postText: "<p>Закат над рекой</p>", imagePath: picture } });
    const here = await eventually(
      () => one<{ post_id: string }>(a.db, sql`select post_id from remote_posts where uri = ${`${b.origin}/post/${post.id}`}`),
      "the post on A",
    );
    const image = (await one<{ image_path: string | null }>(a.db, sql`select image_path from posts where id = ${Number(here.post_id)}`))?.image_path;
    expect(image).toMatch(/^\/api\/v1\/storage\/files\/[0-9a-f]{32}\.webp$/);
    expect(image).not.toBe(picture);
    expect(await getBlobStore().exists(image!.split("/").pop()!)).toBe(true);
  });

  it("a person met for the first time brings their counts and newest public posts, so their page shows them before anyone follows", async () => {
    const anna = await a.person("Ада");
    const boris = await b.person("Бронь");
    for (const n of [1, 2, 3]) await createPost({ ctx: boris.ctx, input: { title: `Запись ${n}`, postText: `<p>Старая запись номер ${n}</p>` } });
    const remote = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    const texts = await eventually(async () => {
      const rows = await a.db.execute<{ post_text: string }>(sql`select post_text from posts where author_id = ${remote.accountId} order by id`);
      return rows.length === 3 ? rows.map((r) => r.post_text) : null;
    }, "the recent posts on A");
    expect(texts.map((t) => /номер (\d)/.exec(t)?.[1])).toEqual(["1", "2", "3"]);
    const profile = await getAccount({ ctx: anna.ctx, input: { id: remote.accountId } });
    expect(profile.remoteCounts).toEqual({ followers: 0, following: 0, posts: 3 });
    // Meeting them again reads nothing twice.
    await lookupRemoteAccount(a.instance, boris.profileUrl);
    expect((await one<{ n: number }>(a.db, sql`select count(*)::int as n from fediverse_outbox where kind = 'fetch-profile' and account_id = ${remote.accountId}`))?.n).toBe(0);
  });

  it("a changed name reaches the followers' servers as an Update of the actor", async () => {
    const anna = await a.person("Аглая");
    const boris = await b.person("Бенедикт");
    const remote = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    await followAndWait(anna, remote.accountId);
    await updateMyAccount({ ctx: boris.ctx, input: { firstName: "Вениамин", about: "Пишу о горах" } });
    await eventually(
      () => one<{ first_name: string; about: string | null }>(a.db, sql`select first_name || ' ' || last_name as first_name, about from accounts where id = ${remote.accountId}`).then((r) => r?.first_name === "Вениамин Fedi" && r.about === "Пишу о горах"),
      "the Update on A",
    );
  });

  it("following a remote person needs one's own federation switched on (403, nothing changes)", async () => {
    const anna = await a.person("Алла");
    await a.db.execute(sql`update accounts set fediverse = false where id = ${anna.id}`);
    const boris = await b.person("Богдан");
    const remote = await lookupRemoteAccount(a.instance, boris.profileUrl);
    await expect(subscribeToAccount({ ctx: anna.ctx, input: { id: remote!.accountId } })).rejects.toMatchObject({ code: "forbidden" });
    expect(await one(a.db, sql`select 1 from friendships where account_id = ${anna.id}`)).toBeUndefined();
    expect(await one(a.db, sql`select 1 from fediverse_outbox where account_id = ${anna.id}`)).toBeUndefined();
  });

  it("an outbox row that cannot be sent is dropped alone: the rows after it still go", async () => {
    const boris = await b.person("Ростислав");
    const anna = await a.person("Арина");
    const remoteBoris = (await lookupRemoteAccount(a.instance, boris.profileUrl))!;
    await followAndWait(anna, remoteBoris.accountId);
    const annaOnB = Number((await one<{ account_id: string }>(b.db, sql`select account_id from remote_actors where uri = ${anna.profileUrl}`))!.account_id);
    // A row that throws when relayed (no URL where one must be), then a post of Boris's in one transaction.
    const post = await b.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into fediverse_outbox (kind, account_id, target_id, activity_id) values ('reject-follow', ${boris.id}, ${annaOnB}, 'not a url')`);
      return createPost({ ctx: { ...boris.ctx, tx }, input: { title: "После ошибки", postText: "<p>Эта запись всё равно дойдёт</p>" } });
    });
    await eventually(() => one(a.db, sql`select 1 from remote_posts where uri = ${`${b.origin}/post/${post.id}`}`), "the post after the bad row on A");
    expect((await one<{ n: number }>(b.db, sql`select count(*)::int as n from fediverse_outbox`))?.n).toBe(0);
  });

  it("an unsigned activity is refused with 401 and changes nothing", async () => {
    const boris = await b.person("Борислав");
    const res = await fetch(`${b.origin}/profile/${boris.id}/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${a.origin}/forged#1`,
        type: "Follow",
        actor: `${a.origin}/profile/1`,
        object: boris.profileUrl,
      }),
    });
    expect(res.status).toBe(401);
    expect(await one(b.db, sql`select 1 from fediverse_followers where account_id = ${boris.id}`)).toBeUndefined();
  });
});
