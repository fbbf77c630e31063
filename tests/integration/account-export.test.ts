import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportGet, POST as exportPost } from "@/app/api/v1/account/export/route";
import { GET as archiveGet } from "@/app/api/v1/account/export/archive/[id]/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getDb } from "@/db/client";
import { env } from "@/lib/server/env";
import { getBoss, QUEUES } from "@/lib/server/jobs/boss";
import { drainMailQueue } from "@/lib/server/mail/queue";
import { writeAccountArchive } from "@/lib/server/services/account-export/archive";
import { purgeExpiredExports, runAccountExport } from "@/lib/server/services/account-export/job";
import { newExportArchiveKey } from "@/lib/server/storage/archive-keys";
import { ARCHIVE_MAX_BYTES } from "@/lib/validation/account-export";
import type { ExportJob } from "@/lib/server/services/account-export/requests";
import { anonymiseExpiredAccounts } from "@/lib/server/services/accounts/anonymise";
import { updateMyAccount } from "@/lib/server/services/accounts/update-account";
import { createComment, deleteComment, likeComment, replyToComment } from "@/lib/server/services/comments/comments";
import { deleteMessage, editMessage } from "@/lib/server/services/dialogs/changes";
import { addMembers, createGroup, removeMember } from "@/lib/server/services/dialogs/groups";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { subscribeToAccount } from "@/lib/server/services/friends/actions";
import { readNotificationSettings, setNotificationSetting } from "@/lib/server/services/notifications/settings";
import { deletePost } from "@/lib/server/services/posts/write-posts";
import { readPrivacy, updatePrivacySettings } from "@/lib/server/services/privacy/settings";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { storedKeyOf } from "@/lib/validation/storage";
import { unzip } from "@/tests/support/zip";
import { lastMail } from "./helpers/auth";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { png, upload } from "./helpers/upload";
import { makeFriends, setPair } from "./friends-support";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const db = () => getDb();

/** Runs the export jobs waiting on the queue, as the worker would. */
async function runQueuedExports(): Promise<string[]> {
  const boss = await getBoss();
  const done: string[] = [];
  for (;;) {
    const jobs = await boss.fetch<ExportJob>(QUEUES.export, { batchSize: 10 });
    if (jobs.length === 0) return done;
    for (const job of jobs) {
      done.push(await runAccountExport(getDb(), job.data.exportId, undefined, job.data.timeZone));
      await boss.complete(QUEUES.export, job.id);
    }
  }
}

async function download(url: string, who: Account | null, headers: Record<string, string> = {}) {
  const id = url.split("/").pop()!;
  return archiveGet(
    new (await import("next/server")).NextRequest(new URL(url, "http://localhost:3000"), {
      headers: { ...(who ? { authorization: `Bearer ${who.accessToken}` } : {}), ...headers },
    }),
    { params: Promise.resolve({ id }) },
  );
}

async function storedPhoto(owner: Account, width: number) {
  const res = await upload(storageRoute, { token: owner.accessToken, bytes: await png(width, 40) });
  expect(res.status).toBe(200);
  return res.body.data as string;
}

let owner: Account;
let friend: Account;
let followed: Account;
let follower: Account;
let blocker: Account;
let photoPath: string;
let postImagePath: string;
let archive: Map<string, Buffer>;
let exportUrl: string;
let groupId: number;

beforeAll(async () => {
  owner = await signedInAccount({ firstName: "Анна", lastName: "Смирнова", language: "ru" });
  friend = await signedInAccount({ firstName: "Boris", lastName: "Ivanov" });
  followed = await signedInAccount({ firstName: "Vera", lastName: "Orlova" });
  follower = await signedInAccount({ firstName: "Gleb", lastName: "Popov" });
  blocker = await signedInAccount({ firstName: "Dina", lastName: "Sokolova" });

  // Relations: a friend, one I follow, one who follows me, one who blocked me (theirs, not mine).
  await makeFriends(owner.id, friend.id);
  await subscribeToAccount({ ctx: owner.ctx, input: { id: followed.id } });
  await subscribeToAccount({ ctx: follower.ctx, input: { id: owner.id } });
  await setPair(blocker.id, owner.id, ["BLOCKED", "REJECTING"]);
  // A name the archive's HTML must escape (as if stored before the name rules).
  await db().execute(sql`update accounts set first_name = '<img src=x onerror=alert(1)>' where id = ${friend.id}`);

  photoPath = await storedPhoto(owner, 60);
  postImagePath = await storedPhoto(owner, 80);
  await updateMyAccount({ ctx: owner.ctx, input: { photo: photoPath } });

  await newPost(owner.ctx, {
    title: "Первая запись",
    postText: '<p>Привет, <strong>мир</strong> &amp; <a href="https://example.com/x">ссылка</a></p><ul><li>один</li><li>два</li></ul>',
    tags: [{ name: "котики" }],
  });
  await newPost(owner.ctx, { title: "С картинкой", postText: "<p>Фото дня, смотрите</p>", imagePath: postImagePath });
  const gone = await newPost(owner.ctx, { title: "Удалённая", postText: "<p>Этого в архиве нет</p>" });
  await deletePost({ ctx: owner.ctx, input: { id: gone.id } });

  const theirs = await newPost(friend.ctx, { title: "Запись друга", postText: "<p>Текст записи друга</p>" });
  const top = await createComment({ ctx: owner.ctx, input: { postId: theirs.id, body: { commentText: "Мой комментарий" } } });
  await replyToComment({ ctx: owner.ctx, input: { postId: theirs.id, parentId: top.id, body: { commentText: "Мой ответ себе" } } });
  const removed = await createComment({ ctx: owner.ctx, input: { postId: theirs.id, body: { commentText: "Удалённый комментарий" } } });
  await deleteComment({ ctx: owner.ctx, input: { postId: theirs.id, id: removed.id } });
  const friendsComment = await createComment({ ctx: friend.ctx, input: { postId: theirs.id, body: { commentText: "Комментарий друга" } } });
  await setPostReaction({ ctx: owner.ctx, input: { id: theirs.id, body: { reactionType: "heart" } } });
  await likeComment({ ctx: owner.ctx, input: { postId: theirs.id, id: friendsComment.id } });
  // A reaction of someone else is not mine.
  await setPostReaction({ ctx: friend.ctx, input: { id: theirs.id, body: { reactionType: "fire" } } });

  const hello = await sendMessage({ ctx: owner.ctx, input: { recipientId: friend.id, messageText: "Привет! <b>жирный?</b>" } });
  await sendMessage({ ctx: friend.ctx, input: { recipientId: owner.id, messageText: "Привет, Анна", replyTo: hello.message.id } });
  const typo = await sendMessage({ ctx: owner.ctx, input: { recipientId: friend.id, messageText: "Как дила?" } });
  await editMessage({ ctx: owner.ctx, input: { id: typo.message.dialogId, messageId: typo.message.id, messageText: "Как дела?" } });
  const oops = await sendMessage({ ctx: owner.ctx, input: { recipientId: friend.id, messageText: "Не тому отправила" } });
  await deleteMessage({ ctx: owner.ctx, input: { id: oops.message.dialogId, messageId: oops.message.id, forEveryone: true } });
  await sendMessage({ ctx: followed.ctx, input: { recipientId: owner.id, messageText: "Спасибо за подписку" } });
  // A dialog without me is not in my archive.
  await sendMessage({ ctx: friend.ctx, input: { recipientId: followed.id, messageText: "Чужая переписка" } });
  // A group conversation (issue 41): what I saw of it, from my joining to my leaving.
  const house = await createGroup({ ctx: friend.ctx, input: { title: "Дом <b>5</b>", memberIds: [followed.id] } });
  await sendMessage({ ctx: friend.ctx, input: { dialogId: house.id, messageText: "До Анны" } });
  await addMembers({ ctx: friend.ctx, input: { id: house.id, accountIds: [owner.id] } });
  await sendMessage({ ctx: followed.ctx, input: { dialogId: house.id, messageText: "Анна, привет" } });
  await sendMessage({ ctx: owner.ctx, input: { dialogId: house.id, messageText: "Всем привет" } });
  await removeMember({ ctx: owner.ctx, input: { id: house.id, accountId: owner.id } });
  await sendMessage({ ctx: friend.ctx, input: { dialogId: house.id, messageText: "После Анны" } });
  groupId = house.id;

  // Her place by its GeoNames ids, as the profile form stores it: Russia, Kazan.
  await db().execute(sql`update accounts set country_code = 'RU', country = null, city_id = 551487, city = null where id = ${owner.id}`);
  await setNotificationSetting({ ctx: owner.ctx, input: { notificationType: "POST", enable: false } });
  await updatePrivacySettings({ ctx: owner.ctx, input: { messagesFrom: "FRIENDS" } });
});

describe("download my data: request, job, archive (issue 26 section 4)", () => {
  it("POST answers 202 PENDING and queues the job; a second request the same day is 429 with Retry-After", async () => {
    expect((await call(exportGet, { token: owner.accessToken })).body.state).toBe("NONE");
    // The browser tells its time zone in the tz cookie: the archive's pages show times in it.
    const first = await call(exportPost, { method: "POST", token: owner.accessToken, headers: { cookie: "tz=Asia/Vladivostok" } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ state: "PENDING", url: null, size: null });
    expect(Date.parse(first.body.nextRequestAt) - Date.parse(first.body.requestedAt)).toBe(24 * 3600 * 1000);

    const again = await call(exportPost, { method: "POST", token: owner.accessToken, headers: { "accept-language": "en" } });
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe("rate_limited");
    expect(again.body.error.message).toBe("You can request an archive once a day. Please try again later.");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    const rows = await db().execute(sql`select 1 from account_exports where account_id = ${owner.id}`);
    expect(rows).toHaveLength(1);

    expect((await call(exportGet, { token: owner.accessToken })).body.state).toBe("PENDING");
    expect((await call(exportGet, {})).status).toBe(401);
  });

  it("the job builds the archive, rings the bell and mails the link in the owner's language", async () => {
    expect(await runQueuedExports()).toEqual(["READY"]);
    const state = await call(exportGet, { token: owner.accessToken });
    expect(state.body).toMatchObject({ state: "READY" });
    expect(state.body.url).toMatch(/^\/api\/v1\/account\/export\/archive\/[0-9a-f-]{36}$/);
    expect(Date.parse(state.body.expiresAt) - Date.parse(state.body.readyAt)).toBe(7 * 24 * 3600 * 1000);
    exportUrl = state.body.url;

    const [bell] = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from notifications where receiver_id = ${owner.id} and notification_type = 'EXPORT_READY'`,
    );
    expect(bell.n).toBe(1);
    await drainMailQueue();
    const mail = await lastMail(owner.email);
    expect(mail?.subject).toBe("Круг: архив ваших данных готов");
    expect(mail?.links).toContain(`${env().PUBLIC_URL}${exportUrl}`);

    const res = await download(exportUrl, owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="krug-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(state.body.size);
    archive = await unzip(bytes);
  });

  const json = (name: string) => JSON.parse(archive.get(name)!.toString("utf8"));

  it("holds the profile, the notification and the privacy settings as stored", async () => {
    const profile = json("profile.json");
    expect(profile).toMatchObject({ id: owner.id, email: owner.email, firstName: "Анна", lastName: "Смирнова", language: "ru" });
    expect(profile.photo).toBe(`images/${storedKeyOf(photoPath)}`);
    expect(profile).not.toHaveProperty("passwordHash");
    expect(json("notification-settings.json")).toEqual(await readNotificationSettings(db(), owner.id));
    expect(json("notification-settings.json").enablePost).toBe(false);
    expect(json("privacy-settings.json")).toEqual(await readPrivacy(db(), owner.id));
    expect(json("privacy-settings.json").messagesFrom).toBe("FRIENDS");
  });

  it("holds every post of mine that is not deleted, as HTML and plain text, with tags and image", async () => {
    const rows = await db().execute<{ id: string; title: string; post_text: string }>(
      sql`select id, title, post_text from posts where author_id = ${owner.id} and not is_deleted order by publish_date desc, id desc`,
    );
    const posts = json("posts.json");
    expect(posts.map((p: { id: number }) => p.id)).toEqual(rows.map((r) => Number(r.id)));
    expect(posts.map((p: { html: string }) => p.html)).toEqual(rows.map((r) => r.post_text));
    const first = posts.find((p: { title: string }) => p.title === "Первая запись");
    expect(first.text).toBe("Привет, мир & ссылка (https://example.com/x)\n• один\n• два");
    expect(first.tags).toEqual(["котики"]);
    const withImage = posts.find((p: { title: string }) => p.title === "С картинкой");
    expect(withImage).toMatchObject({ image: `images/${storedKeyOf(postImagePath)}`, type: "POSTED", text: "Фото дня, смотрите" });
    expect(posts.some((p: { title: string }) => p.title === "Удалённая")).toBe(false);
  });

  it("holds my comments, reactions and likes, and nobody else's", async () => {
    const comments = await db().execute<{ id: string; comment_text: string; parent_id: string | null }>(
      sql`select id, comment_text, parent_id from comments where author_id = ${owner.id} and not is_deleted order by time desc, id desc`,
    );
    expect(json("comments.json").map((c: { id: number; text: string }) => [c.id, c.text])).toEqual(comments.map((c) => [Number(c.id), c.comment_text]));
    expect(comments).toHaveLength(2);

    const reactions = await db().execute<{ post_id: string; reaction_type: string }>(
      sql`select post_id, reaction_type from post_reactions where account_id = ${owner.id} order by post_id`,
    );
    const likes = await db().execute<{ comment_id: string }>(sql`select comment_id from comment_likes where account_id = ${owner.id} order by comment_id`);
    const archived = json("reactions.json");
    expect(archived.filter((r: { kind: string }) => r.kind === "POST").map((r: { postId: number; reactionType: string }) => [r.postId, r.reactionType])).toEqual(
      reactions.map((r) => [Number(r.post_id), r.reaction_type]),
    );
    expect(archived.filter((r: { kind: string }) => r.kind === "COMMENT").map((r: { commentId: number }) => r.commentId)).toEqual(likes.map((l) => Number(l.comment_id)));
    expect(archived).toHaveLength(2);
  });

  it("holds my side of every relation, without who blocked me", async () => {
    const rows = await db().execute<{ friend_id: string; status_code: string }>(
      sql`select friend_id, status_code from friendships where account_id = ${owner.id} and status_code <> 'REJECTING' order by friend_id`,
    );
    const friends = json("friends.json");
    expect(friends.map((f: { accountId: number; statusCode: string }) => [f.accountId, f.statusCode])).toEqual(rows.map((r) => [Number(r.friend_id), r.status_code]));
    expect(friends.map((f: { statusCode: string }) => f.statusCode).sort()).toEqual(["FRIEND", "SUBSCRIBED", "WATCHING"]);
    expect(friends.some((f: { accountId: number }) => f.accountId === blocker.id)).toBe(false);
  });

  it("holds every message of my dialogs, sent and received, with the other person's name", async () => {
    const dialogs = json("dialogs.json");
    const mine = await db().execute<{ dialog_id: string; partner_id: string | null }>(
      sql`select dialog_id, partner_id from dialog_members where account_id = ${owner.id} order by dialog_id`,
    );
    expect(dialogs.map((d: { dialogId: number; partner: { id: number } | null }) => [d.dialogId, d.partner?.id ?? null])).toEqual(
      mine.map((m) => [Number(m.dialog_id), m.partner_id === null ? null : Number(m.partner_id)]),
    );
    for (const d of dialogs.filter((x: { partner: unknown }) => x.partner !== null)) {
      const file = JSON.parse(archive.get(d.file)!.toString("utf8"));
      const rows = await db().execute<{ id: string; author_id: string; message_text: string }>(
        sql`select id, author_id, message_text from messages where dialog_id = ${d.dialogId} order by created_at, id`,
      );
      expect(file.partner).toEqual(d.partner);
      expect(file.messages.map((m: { id: number; text: string; direction: string }) => [m.id, m.text, m.direction])).toEqual(
        rows.map((r) => [Number(r.id), r.message_text, Number(r.author_id) === owner.id ? "SENT" : "RECEIVED"]),
      );
    }
    const withFriend = dialogs.find((d: { partner: { id: number } | null }) => d.partner?.id === friend.id);
    expect(withFriend.partner.firstName).toBe("<img src=x onerror=alert(1)>");
    expect(JSON.stringify(dialogs)).not.toContain(String(followed.id) + ',"firstName":"Boris"');
    const all = [...archive.keys()].filter((k) => k.startsWith("dialogs/")).map((k) => archive.get(k)!.toString("utf8")).join("\n");
    expect(all).not.toContain("Чужая переписка");
  });

  it("holds a group conversation as I saw it: from my joining to my leaving, with who wrote what, the title escaped (issue 41)", () => {
    const listed = json("dialogs.json").find((d: { dialogId: number }) => d.dialogId === groupId);
    expect(listed).toMatchObject({ partner: null, title: "Дом <b>5</b>", messageCount: 4 });
    const file = JSON.parse(archive.get(`dialogs/${groupId}.json`)!.toString("utf8"));
    expect(file.title).toBe("Дом <b>5</b>");
    expect(file.messages.map((m: { text: string; direction: string; author?: { firstName: string } }) => [m.text, m.direction, m.author?.firstName])).toEqual([
      ["Анна, привет", "RECEIVED", "Vera"],
      ["Всем привет", "SENT", "Анна"],
    ]);
    const page = archive.get(`dialogs/${groupId}.html`)!.toString("utf8");
    expect(page.match(/<h1>.*<\/h1>/)?.[0]).toBe("<h1>Беседа «Дом &lt;b&gt;5&lt;/b&gt;»</h1>");
    expect(page).not.toContain("<b>5</b>");
    expect(page).toContain("Vera Orlova");
    expect(page).not.toContain("До Анны");
    expect(page).not.toContain("После Анны");
  });

  it("holds my uploaded images, byte for byte", async () => {
    for (const path of [photoPath, postImagePath]) {
      const key = storedKeyOf(path)!;
      const stored = await getBlobStore().get(key);
      const original = Buffer.from(await new Response(stored!.body).arrayBuffer());
      expect(archive.get(`images/${key}`)?.equals(original)).toBe(true);
    }
    expect([...archive.keys()].filter((k) => k.startsWith("images/"))).toHaveLength(2);
  });

  it("past its size cap copies no more photos, says so on the index and names them with their addresses (issue 40 item 6)", async () => {
    const key = newExportArchiveKey();
    // 2 KB: the data files alone fill it, so no photo fits.
    const { counts } = await writeAccountArchive(getDb(), { accountId: owner.id, key, locale: "ru", timeZone: "UTC", maxBytes: 2048 });
    try {
      const stored = await getBlobStore().get(key);
      const files = await unzip(Buffer.from(await new Response(stored!.body).arrayBuffer()));
      expect(counts).toMatchObject({ images: 0, imagesNotCopied: 2 });
      expect([...files.keys()].filter((k) => k.startsWith("images/"))).toEqual([]);
      const notCopied = JSON.parse(files.get("images-not-copied.json")!.toString("utf8"));
      expect(notCopied).toEqual(
        [photoPath, postImagePath].map((p) => ({ file: `images/${storedKeyOf(p)}`, url: `${env().PUBLIC_URL}${p}` })),
      );
      const html = files.get("index.html")!.toString("utf8");
      expect(html).toContain("Архив достиг предельного размера 2.0 KB: 2 фотографии не скопированы.");
      expect(html).toContain('<a href="images-not-copied.json">');
      // The data itself is whole.
      expect(JSON.parse(files.get("posts.json")!.toString("utf8"))).toHaveLength(2);
    } finally {
      await getBlobStore().delete(key);
    }
    expect(ARCHIVE_MAX_BYTES).toBe(1024 ** 3);
  });

  it("has a readable index in my language, linking every section, with user data escaped", () => {
    const html = archive.get("index.html")!.toString("utf8");
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain("Мои данные в Круге");
    for (const file of ["profile.json", "posts.json", "comments.json", "reactions.json", "friends.json", "dialogs.json", "notification-settings.json", "privacy-settings.json"]) {
      expect(html).toContain(`href="${file}"`);
    }
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img src=x");
  });

  it("names the country and city, and shows times in my zone with the offset (issue 40 item 18)", () => {
    const profile = json("profile.json");
    expect(profile).toMatchObject({ countryCode: "RU", country: "Россия", cityId: 551487, city: "Казань" });
    const html = archive.get("index.html")!.toString("utf8");
    expect(html).toContain("<dt>Страна</dt><dd>Россия</dd>");
    expect(html).toContain("<dt>Город</dt><dd>Казань</dd>");
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain("prefers-color-scheme:dark");
    // Made now, shown in Vladivostok's time with its offset; the registration date too.
    expect(html).toMatch(/создан \d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2} \(UTC\+10:00\)/);
    expect(html).toMatch(/<dt>В Круге с<\/dt><dd>[^<]+\(UTC\+10:00\)<\/dd>/);
  });

  it("keeps a message deleted for everyone as deleted, and edits and replies, in the JSON and on the dialog's page", () => {
    const withFriend = json("dialogs.json").find((d: { partner: { id: number } }) => d.partner.id === friend.id);
    const { messages } = json(withFriend.file);
    const [hello, reply, edited, deleted] = messages;
    expect(reply).toMatchObject({ direction: "RECEIVED", text: "Привет, Анна", replyTo: { id: hello.id, text: "Привет! <b>жирный?</b>" } });
    expect(edited).toMatchObject({ direction: "SENT", text: "Как дела?", deleted: false });
    expect(edited.editedAt).toMatch(/Z$/);
    expect(deleted).toMatchObject({ direction: "SENT", text: "", images: [], deleted: true });
    expect(deleted.deletedAt).toMatch(/Z$/);
    expect(hello).toMatchObject({ deleted: false, editedAt: null, replyTo: null });

    const index = archive.get("index.html")!.toString("utf8");
    expect(index).toContain(`href="dialogs/${withFriend.dialogId}.html"`);
    const page = archive.get(`dialogs/${withFriend.dialogId}.html`)!.toString("utf8");
    expect(page).toContain('<html lang="ru">');
    const item = (id: number) => page.match(new RegExp(`<li class="[^"]*" id="m${id}">(.*?)</li>`))![1];
    expect(item(deleted.id)).toContain("Сообщение удалено для всех");
    expect(item(deleted.id)).not.toMatch(/<p>/);
    expect(item(edited.id)).toMatch(/<p>Как дела\?<\/p>.*изменено .*\(UTC\+10:00\)/);
    expect(item(reply.id)).toContain(`<a href="#m${hello.id}">В ответ на:</a> Привет! &lt;b&gt;жирный?&lt;/b&gt;`);
    expect(item(hello.id)).toContain("<p>Привет! &lt;b&gt;жирный?&lt;/b&gt;</p>");
    expect(page).not.toContain("<b>жирный");
  });
});

describe("who may download, and for how long", () => {
  it("only the owner: another account gets 404, no session 401, a signed-out browser is sent to sign in", async () => {
    const stranger = await signedInAccount();
    const other = await download(exportUrl, stranger);
    expect(other.status).toBe(404);
    expect((await other.json()).error.code).toBe("not_found");
    expect((await download(exportUrl, null)).status).toBe(401);
    const browser = await download(exportUrl, null, { "sec-fetch-mode": "navigate" });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toMatch(/\/login\?redirect=Settings$/);
    expect((await download("/api/v1/account/export/archive/not-a-uuid", owner)).status).toBe(404);
  });

  it("after 7 days the link says expired; the sweep deletes the file and the row; a new request is accepted", async () => {
    const [row] = await db().execute<{ storage_key: string }>(sql`select storage_key from account_exports where account_id = ${owner.id}`);
    expect(await getBlobStore().exists(row.storage_key)).toBe(true);
    expect(await purgeExpiredExports(getDb(), new Date())).toBe(0);

    await db().execute(sql`
      update account_exports set requested_at = requested_at - interval '8 days', ready_at = ready_at - interval '8 days',
        expires_at = expires_at - interval '8 days' where account_id = ${owner.id}`);
    expect((await call(exportGet, { token: owner.accessToken })).body).toMatchObject({ state: "EXPIRED", url: null, nextRequestAt: null });
    const late = await download(exportUrl, owner);
    expect(late.status).toBe(404);

    expect(await purgeExpiredExports(getDb(), new Date())).toBe(1);
    expect(await getBlobStore().exists(row.storage_key)).toBe(false);
    expect(await db().execute(sql`select 1 from account_exports where account_id = ${owner.id}`)).toHaveLength(0);
    expect((await call(exportGet, { token: owner.accessToken })).body.state).toBe("NONE");
    expect((await call(exportPost, { method: "POST", token: owner.accessToken })).status).toBe(202);
  });

  it("an account erased for good loses its archives too, row and file", async () => {
    const leaving = await signedInAccount();
    expect((await call(exportPost, { method: "POST", token: leaving.accessToken })).status).toBe(202);
    await runQueuedExports();
    const [row] = await db().execute<{ storage_key: string }>(sql`select storage_key from account_exports where account_id = ${leaving.id}`);
    expect(await getBlobStore().exists(row.storage_key)).toBe(true);
    await db().execute(sql`update accounts set is_deleted = true, deletion_timestamp = now() - interval '30 days' where id = ${leaving.id}`);
    expect(await anonymiseExpiredAccounts(getDb(), new Date())).toBeGreaterThanOrEqual(1);
    expect(await db().execute(sql`select 1 from account_exports where account_id = ${leaving.id}`)).toHaveLength(0);
    expect(await getBlobStore().exists(row.storage_key)).toBe(false);
  });

  it("an English account gets its index and mail in English", async () => {
    const en = await signedInAccount({ language: "en" });
    expect((await call(exportPost, { method: "POST", token: en.accessToken })).status).toBe(202);
    await runQueuedExports();
    const state = await call(exportGet, { token: en.accessToken });
    expect(state.body.state).toBe("READY");
    const files = await unzip(Buffer.from(await (await download(state.body.url, en)).arrayBuffer()));
    const html = files.get("index.html")!.toString("utf8");
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("My data on Krug");
    expect(JSON.parse(files.get("posts.json")!.toString())).toEqual([]);
    await drainMailQueue();
    expect((await lastMail(en.email))?.subject).toBe("Krug: your data archive is ready");
  });

  it("a failure is retried; after the last attempt the row is FAILED, no file is left, and a new request is accepted", async () => {
    const unlucky = await signedInAccount();
    expect((await call(exportPost, { method: "POST", token: unlucky.accessToken })).status).toBe(202);
    const [{ id }] = await db().execute<{ id: string }>(sql`select id from account_exports where account_id = ${unlucky.id}`);
    // The last attempt, and the store refuses the archive.
    await db().execute(sql`update account_exports set attempts = 2 where id = ${id}`);
    const store = getBlobStore();
    const original = store.putStream.bind(store);
    store.putStream = async (key, data) => {
      data.resume();
      await new Promise((r) => data.on("end", r));
      throw new Error(`disk full (${key})`);
    };
    try {
      expect(await runAccountExport(getDb(), id)).toBe("FAILED");
    } finally {
      store.putStream = original;
    }
    const state = await call(exportGet, { token: unlucky.accessToken });
    expect(state.body).toMatchObject({ state: "FAILED", nextRequestAt: null, url: null });
    expect((await call(exportPost, { method: "POST", token: unlucky.accessToken })).status).toBe(202);
  });
});
