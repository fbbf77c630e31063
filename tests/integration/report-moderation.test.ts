// Issue 40 items 8, 9 and 15 (docs/adr/0164): a report keeps the item's photos as copies that only staff
// can open; nobody resolves a report that concerns them; every notice names its item, and a blocked
// item's author is told why.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as reportFileRoute } from "@/app/api/v1/admin/reports/files/[key]/route";
import { GET as countRoute } from "@/app/api/v1/admin/reports/count/route";
import { GET as storedFileRoute } from "@/app/api/v1/storage/files/[key]/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getDb } from "@/db/client";
import { notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import { createComment } from "@/lib/server/services/comments/comments";
import { deleteMessage } from "@/lib/server/services/dialogs/changes";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import type { NotificationDto } from "@/lib/validation/notifications-shared";
import { storedKeyOf } from "@/lib/validation/storage";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { call } from "./helpers/http";
import { fetchStored, filesUnder, png, upload } from "./helpers/upload";
import { newPost } from "./post-support";
import { groupOf, notificationsOf, openGroupRow, queue, report, reportCast, resolve, withRole, type Account } from "./report-support";

const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "krug-report-evidence-"));
vi.stubEnv("DATA_DIR", DATA_DIR);
vi.stubEnv("RATE_LIMIT_REPORT", "50/1h");
vi.stubEnv("RATE_LIMIT_UPLOAD", "100/30m");

const REPORT_FILE = /^\/api\/v1\/admin\/reports\/files\/report-[a-f0-9]{32}\.webp$/;
const reportFiles = () => filesUnder(path.join(DATA_DIR, "uploads")).filter((f) => path.basename(f).startsWith("report-"));

async function uploaded(who: Account, n: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await upload(storageRoute, { token: who.accessToken, bytes: await png(30 + i, 20), contentType: "image/png" });
    expect(res.status).toBe(200);
    paths.push(res.body.data);
  }
  return paths;
}

const bytesOf = async (storedPath: string) => {
  const file = await getBlobStore().get(storedKeyOf(storedPath)!);
  return Buffer.from(await new Response(file!.body).arrayBuffer());
};

const fetchReportFile = (who: Account | null, filePath: string) => {
  const key = filePath.split("/").pop()!;
  return call(reportFileRoute, { token: who?.accessToken, path: filePath, params: { key } });
};

/** A report file's bytes as the route serves them to `who`. */
async function bytesFor(who: Account, filePath: string): Promise<Buffer> {
  const req = new NextRequest(new URL(filePath, "http://localhost:3000"), { headers: { authorization: `Bearer ${who.accessToken}` } });
  const res = await reportFileRoute(req, { params: Promise.resolve({ key: filePath.split("/").pop()! }) });
  return Buffer.from(await res.arrayBuffer());
}

/** The sentence and name a notice shows in `lang` (the bell, the toasts and push all use this). */
const shown = (n: NotificationDto, lang: "ru" | "en" = "ru") =>
  notificationText(createTranslator({ locale: lang, messages: lang === "ru" ? ru : en, namespace: "notifications" }) as unknown as NotificationsTranslate, n);

let author: Account, bob: Account, carol: Account, moderator: Account;

beforeAll(async () => {
  ({ author, bob, carol, moderator } = await reportCast());
});

describe("photos kept with a report (item 8)", () => {
  it("copies the reported message's photos, which staff alone can open after the message and its files are gone", async () => {
    const [before, ...photos] = await uploaded(author, 3);
    await sendMessage({ ctx: author.ctx, input: { recipientId: bob.id, messageText: "до", images: [before] } });
    const sent = await sendMessage({ ctx: author.ctx, input: { recipientId: bob.id, messageText: "смотри", images: photos } });
    const originals = await Promise.all(photos.map(bytesOf));
    expect((await report(bob, { targetType: "MESSAGE", targetId: sent.message.id, category: "ADULT" })).status).toBe(201);

    const row = await openGroupRow(moderator, "MESSAGE", sent.message.id);
    const [earlier, reported] = row.snapshot.messages.slice(-2);
    expect(reported).toMatchObject({ text: "смотри", reported: true, imageCount: 2 });
    expect(reported.images).toHaveLength(2);
    for (const copy of reported.images) expect(copy).toMatch(REPORT_FILE);
    // An earlier message keeps its text and how many photos it had, not the photos (ADR 0164).
    expect(earlier).toMatchObject({ text: "до", imageCount: 1 });
    expect(earlier.images).toBeUndefined();

    // The author deletes the message for everyone and its files go from the store: the copies stay.
    await deleteMessage({ ctx: author.ctx, input: { id: sent.message.dialogId, messageId: sent.message.id, forEveryone: true } });
    for (const p of photos) await getBlobStore().delete(storedKeyOf(p)!);
    for (const [i, copy] of reported.images.entries()) {
      const file = await fetchReportFile(moderator, copy);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/webp");
      expect(file.headers.get("cache-control")).toBe("private, no-store");
      expect((await bytesFor(moderator, copy)).equals(originals[i])).toBe(true);
    }
    // Staff only: not without a session (401), not the reporter (403), never through the public file route (404).
    const copy = reported.images[0] as string;
    expect((await fetchReportFile(null, copy)).status).toBe(401);
    expect((await fetchReportFile(bob, copy)).status).toBe(403);
    expect((await fetchStored(storedFileRoute, copy.replace("/admin/reports/files/", "/storage/files/"))).status).toBe(404);
    expect((await fetchReportFile(moderator, "/api/v1/admin/reports/files/..%2Fx.webp")).status).toBe(404);
    expect((await fetchReportFile(moderator, `/api/v1/admin/reports/files/${storedKeyOf(before)}`)).status).toBe(404);
  });

  it("keeps a photo-only message's photos, a post's image and a profile's photo; a refused report copies nothing", async () => {
    const [a, b, c] = await uploaded(author, 3);
    const photoOnly = await sendMessage({ ctx: author.ctx, input: { recipientId: carol.id, messageText: "", images: [a] } });
    expect((await report(carol, { targetType: "MESSAGE", targetId: photoOnly.message.id, category: "SPAM" })).status).toBe(201);
    const m = (await openGroupRow(moderator, "MESSAGE", photoOnly.message.id)).snapshot.messages.at(-1);
    expect(m).toMatchObject({ text: "", reported: true });
    expect(m.images).toEqual([expect.stringMatching(REPORT_FILE)]);

    const post = await newPost(author.ctx, { title: "Фото-пост", imagePath: b });
    expect((await report(carol, { targetType: "POST", targetId: post.id, category: "ADULT" })).status).toBe(201);
    expect((await openGroupRow(moderator, "POST", post.id)).snapshot.images).toEqual([expect.stringMatching(REPORT_FILE)]);

    await getDb().execute(sql`update accounts set photo = ${c} where id = ${author.id}`);
    expect((await report(carol, { targetType: "ACCOUNT", targetId: author.id, category: "ADULT" })).status).toBe(201);
    expect((await openGroupRow(moderator, "ACCOUNT", author.id)).snapshot.images).toEqual([expect.stringMatching(REPORT_FILE)]);

    // A repeat is a 409 before anything is copied.
    const files = reportFiles().length;
    expect((await report(carol, { targetType: "POST", targetId: post.id, category: "ADULT" })).status).toBe(409);
    expect(reportFiles()).toHaveLength(files);
  });
});

describe("a report that concerns a staff member (item 9)", () => {
  it("is neither in their queue nor in their count, and they may not resolve it; another moderator or an admin does", async () => {
    const [mod2, admin] = await Promise.all([withRole("MODERATOR", "Mira"), withRole("ADMIN", "Adam")]);
    const post = await newPost(mod2.ctx, { title: "Пост модератора" });
    expect((await report(bob, { targetType: "POST", targetId: post.id, category: "INSULT" })).status).toBe(201);
    expect((await report(carol, { targetType: "ACCOUNT", targetId: mod2.id, category: "FRAUD" })).status).toBe(201);
    const [postGroup] = await groupOf("POST", post.id);
    const [accountGroup] = await groupOf("ACCOUNT", mod2.id);

    const own = await queue(mod2, "status=OPEN&size=100");
    expect(own.body.content.map((g: { id: number }) => g.id)).not.toContain(postGroup.id);
    expect(own.body.content.map((g: { id: number }) => g.id)).not.toContain(accountGroup.id);
    const others = await queue(moderator, "status=OPEN&size=100");
    expect(others.body.content.map((g: { id: number }) => g.id)).toEqual(expect.arrayContaining([postGroup.id, accountGroup.id]));
    const countOf = async (who: Account) => (await call(countRoute, { token: who.accessToken, path: "/api/v1/admin/reports/count" })).body.count;
    expect(await countOf(mod2)).toBe((await countOf(moderator)) - 2);
    // The live count each staff member is sent is the count of their own queue.
    const [latest] = await getDb().execute<{ id: string }>(sql`select max(id) as id from events where type = 'REPORTS_CHANGED'`);
    const announced = await getDb().execute<{ recipients: string[]; payload: { open: number } }>(
      sql`select recipients, payload from events where type = 'REPORTS_CHANGED' and id > ${Number(latest.id) - 5} order by id desc`,
    );
    const openFor = (who: Account) => announced.find((e) => e.recipients.map(Number).includes(who.id))?.payload.open;
    expect(openFor(mod2)).toBe((openFor(moderator) ?? 0) - 2);

    const refused = await resolve(mod2, postGroup.id, { action: "DISMISS", reason: "Всё в порядке" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden" });
    expect((await groupOf("POST", post.id))[0].status).toBe("OPEN");
    // An admin concerned is refused alike (their own post); the moderator resolves that one.
    const adminPost = await newPost(admin.ctx, { title: "Пост админа" });
    await report(bob, { targetType: "POST", targetId: adminPost.id, category: "SPAM" });
    const [adminGroup] = await groupOf("POST", adminPost.id);
    expect((await resolve(admin, adminGroup.id, { action: "DISMISS", reason: "Моё" })).status).toBe(403);
    expect((await resolve(moderator, adminGroup.id, { action: "DISMISS", reason: "Не спам" })).status).toBe(200);
    // The admin resolves the reports about the moderator (even blocking them); once resolved they stay out of
    // the moderator's resolved tab too, with their reporters.
    expect((await resolve(admin, postGroup.id, { action: "BLOCK_CONTENT", reason: "Грубость" })).status).toBe(200);
    expect((await resolve(admin, accountGroup.id, { action: "DISMISS", reason: "Не мошенник" })).status).toBe(200);
    const resolvedTab = await queue(mod2, "status=RESOLVED&size=100");
    expect(resolvedTab.body.content.map((g: { id: number }) => g.id)).not.toContain(postGroup.id);
  });
});

describe("moderation notices (item 15)", () => {
  it("tells each reporter once per report, naming the item, and the blocked item's author why", async () => {
    const seller = await withRole("USER", "Seller");
    const post = await newPost(seller.ctx, { title: "Распродажа котов" });
    const comment = await createComment({ ctx: seller.ctx, input: { postId: post.id, body: { commentText: "Купи кота, не пожалеешь" } } });
    const message = await sendMessage({ ctx: seller.ctx, input: { recipientId: bob.id, messageText: "Ты дурак" } });
    for (const who of [bob, carol]) expect((await report(who, { targetType: "POST", targetId: post.id, category: "SPAM" })).status).toBe(201);
    expect((await report(bob, { targetType: "COMMENT", targetId: comment.id, category: "SPAM" })).status).toBe(201);
    expect((await report(bob, { targetType: "MESSAGE", targetId: message.message.id, category: "INSULT" })).status).toBe(201);
    const bobBefore = (await notificationsOf(bob)).length;

    const [postGroup] = await groupOf("POST", post.id);
    expect((await resolve(moderator, postGroup.id, { action: "BLOCK_CONTENT", reason: "Реклама запрещена" })).status).toBe(200);
    const [toCarol] = await notificationsOf(carol);
    expect(toCarol).toMatchObject({ content: "BLOCK_CONTENT", data: { details: { targetType: "POST", excerpt: "Распродажа котов" } } });
    expect(shown(toCarol)).toEqual({ name: "Круг", sentence: "Мы рассмотрели вашу жалобу на запись «Распродажа котов»: материал заблокирован. Спасибо" });
    expect(shown(toCarol, "en").sentence).toBe("We reviewed your report of the post “Распродажа котов”: it is now blocked. Thank you");
    // The author is told at once, with the reason, and led to the post.
    const told = await notificationsOf(seller, "CONTENT_BLOCKED");
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ content: "Распродажа котов", data: { postId: post.id, author: null, details: { reason: "Реклама запрещена" } } });
    expect(shown(told[0])).toEqual({ name: "Круг", sentence: "Модератор заблокировал вашу запись «Распродажа котов». Причина: Реклама запрещена" });

    // Blocking the author from the message's report answers their comment's report too: one resolution, and
    // Bob's notices name each item instead of repeating "the author is blocked" word for word.
    const [messageGroup] = await groupOf("MESSAGE", message.message.id);
    expect((await resolve(moderator, messageGroup.id, { action: "BLOCK_AUTHOR", reason: "Оскорбления", days: 1 })).status).toBe(200);
    expect((await groupOf("COMMENT", comment.id)).map((g) => g.status)).toEqual(["RESOLVED"]);
    const toBob = await notificationsOf(bob);
    expect(toBob).toHaveLength(bobBefore + 3);
    const sentences = toBob.slice(0, 3).map((n: NotificationDto) => shown(n).sentence);
    expect(new Set(sentences).size).toBe(3);
    expect(sentences).toEqual(
      expect.arrayContaining([
        "Мы рассмотрели вашу жалобу на сообщение «Ты дурак»: автор заблокирован. Спасибо",
        "Мы рассмотрели вашу жалобу на комментарий «Купи кота, не пожалеешь»: автор заблокирован. Спасибо",
        "Мы рассмотрели вашу жалобу на запись «Распродажа котов»: материал заблокирован. Спасибо",
      ]),
    );
  });
});
