// Issue 27 (docs/adr/0134): photos in chat messages — `images: [path, …]` of images this server stored,
// on POST dialogs/{id}/messages and the socket's MESSAGE frame alike; refusals, blocks, the live frame,
// resume, the dialog preview, deletion for both and the data archive.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { DELETE as deleteRoute } from "@/app/api/v1/dialogs/[id]/messages/[messageId]/route";
import { GET as messagesRoute } from "@/app/api/v1/dialogs/messages/route";
import { GET as listRoute } from "@/app/api/v1/dialogs/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getDb } from "@/db/client";
import { closeRateLimitStore } from "@/lib/server/http/rate-limit";
import { messagesOf } from "@/lib/server/services/account-export/sections";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { png, upload } from "./helpers/upload";
import { TestSocket, type Frame } from "./helpers/ws-client";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-message-images-")));
vi.stubEnv("RATE_LIMIT_UPLOAD", "100/30m");
// Small enough for the limit test to reach with one account; the other tests send fewer per account.
vi.stubEnv("RATE_LIMIT_MESSAGE_BURST", "6/10s");

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };

const send = (who: Account, dialogId: number, body: unknown) =>
  call(sendRoute, { method: "POST", token: who.accessToken, params: { id: String(dialogId) }, body, headers: EN });
const history = (who: Account, dialogId: number) =>
  call(messagesRoute, { token: who.accessToken, path: `/api/v1/dialogs/messages?dialogId=${dialogId}&sort=time,asc`, headers: EN });
const dialogsOf = (who: Account) => call(listRoute, { token: who.accessToken, path: "/api/v1/dialogs", headers: EN });
const countIn = async (dialogId: number) =>
  Number((await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where dialog_id = ${dialogId}`))[0].n);

/** Uploads `n` small images through the one upload route (sniffed, re-encoded) and returns their paths. */
async function uploads(who: Account, n: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await upload(storageRoute, { token: who.accessToken, bytes: await png(20 + i, 20), contentType: "image/png" });
    expect(res.status).toBe(200);
    paths.push(res.body.data);
  }
  return paths;
}

async function nextOf(socket: TestSocket, ...types: string[]): Promise<Frame> {
  for (;;) {
    const f = await socket.next();
    if (types.includes(f.type)) return f;
  }
}

let server: RealtimeServer;
let stock: string[];
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
  const owner = await signedInAccount({ firstName: "Stock" });
  stock = await uploads(owner, 11);
});
afterAll(async () => {
  await server.close();
  await closeRateLimitStore();
});

let a: Account;
let b: Account;
let dialogId: number;
beforeEach(async () => {
  [a, b] = await Promise.all([signedInAccount({ firstName: "Anna" }), signedInAccount({ firstName: "Boris" })]);
  dialogId = (await createDialog({ ctx: a.ctx, input: { recipientId: b.id } })).dialog.id;
});

describe("POST dialogs/{id}/messages with images", () => {
  it("stores photos without text, in order; history, the dialog preview and the live frame carry them; resume replays them", async () => {
    const mine = await uploads(a, 2);
    const b1 = await TestSocket.open(server.port, { token: b.accessToken });
    const first = await send(a, dialogId, { messageText: "смотри", images: mine });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ messageText: "смотри", images: mine });
    const live = await nextOf(b1, "MESSAGE");
    expect(live.data).toEqual(first.body);
    await b1.close();
    // B is away: a photo-only message (the text may be empty or left out when there are photos).
    const photoOnly = await send(a, dialogId, { images: [mine[1]] });
    expect(photoOnly.status).toBe(201);
    expect(photoOnly.body).toMatchObject({ messageText: "", images: [mine[1]] });
    const b2 = await TestSocket.open(server.port, { token: b.accessToken, lastEventId: live.id });
    expect((await nextOf(b2, "MESSAGE")).data).toEqual(photoOnly.body);
    await b2.close();

    const seen = await history(b, dialogId);
    expect(seen.body.content.map((m: { images: string[] }) => m.images)).toEqual([mine, [mine[1]]]);
    const list = await dialogsOf(b);
    expect(list.body.content[0].lastMessage).toMatchObject({ id: photoOnly.body.id, messageText: "", imageCount: 1 });
    // A text message has none.
    const plain = await send(b, dialogId, { messageText: "красиво" });
    expect(plain.body.images).toEqual([]);
    expect((await dialogsOf(a)).body.content[0].lastMessage).toMatchObject({ messageText: "красиво", imageCount: 0 });
    // A reply to a photo-only message quotes how many photos it has.
    const reply = await send(b, dialogId, { messageText: "где это?", replyTo: photoOnly.body.id });
    expect(reply.body.replyTo).toEqual({ id: photoOnly.body.id, authorId: a.id, messageText: "", deleted: false, imageCount: 1 });
  });

  it("refuses what is not an image this server stored, more than 10, repeats, and an empty message (422, nothing stored)", async () => {
    const before = await countIn(dialogId);
    const notStored = `/api/v1/storage/files/${"0".repeat(32)}.webp`;
    const cases: [unknown, string][] = [
      [{ messageText: "x", images: ["https://evil.example/cat.webp"] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "x", images: ["/api/v1/storage/files/../../etc/passwd"] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "x", images: [stock[0].replace(".webp", ".png")] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "x", images: [`${stock[0]}?x=1`] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "x", images: [notStored] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "x", images: stock }, "At most 10 photos per message"],
      [{ messageText: "x", images: [stock[0], stock[0]] }, "The same photo is attached twice"],
      [{ messageText: "x", images: "not a list" }, "Photos are sent as a list of paths of uploaded images"],
      [{ messageText: "x", images: [42] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "x", images: ["a".repeat(5_000)] }, "Only photos uploaded through the upload form can be attached"],
      [{ messageText: "   " }, "A message cannot be empty"],
      [{ messageText: "", images: [] }, "A message cannot be empty"],
      [{}, "A message cannot be empty"],
    ];
    for (const [body, message] of cases) {
      const res = await send(a, dialogId, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.issues[0].message, JSON.stringify(body).slice(0, 80)).toBe(message);
      expect(res.body.requestId).toBeTruthy();
    }
    // A path of the right form that was never stored names its place in the list.
    const missing = await send(a, dialogId, { messageText: "x", images: [stock[0], notStored] });
    expect(missing.body.error.issues).toEqual([{ path: "images.1", message: "Only photos uploaded through the upload form can be attached" }]);
    expect(await countIn(dialogId)).toBe(before);
    // Ten is the limit, not eleven.
    const ten = await send(a, dialogId, { images: await uploads(a, 10) });
    expect(ten.status).toBe(201);
    expect(ten.body.images).toHaveLength(10);
  });

  it("attaches only the sender's own uploads or photos already in the dialog; anyone else's is refused (issue 40 item 6)", async () => {
    const carol = await signedInAccount({ firstName: "Carol" });
    const before = await countIn(dialogId);
    // Another account's upload (the stock's owner's) is a stored image, but not Anna's to send.
    const [mine] = await uploads(a, 1);
    const theirs = await send(a, dialogId, { messageText: "x", images: [mine, stock[0]] });
    expect(theirs.status).toBe(422);
    expect(theirs.body.error.issues).toEqual([{ path: "images.1", message: "You can attach only photos you uploaded, or ones already in this dialog" }]);
    expect(await countIn(dialogId)).toBe(before);

    // Anna's photo, once in the dialog, may be sent back by Boris there — and nowhere else.
    expect((await send(a, dialogId, { messageText: "", images: [mine] })).status).toBe(201);
    expect((await send(b, dialogId, { messageText: "this one?", images: [mine] })).status).toBe(201);
    const elsewhere = (await createDialog({ ctx: b.ctx, input: { recipientId: carol.id } })).dialog.id;
    const forwarded = await send(b, elsewhere, { messageText: "look", images: [mine] });
    expect(forwarded.status).toBe(422);
    expect(forwarded.body.error.issues[0]).toEqual({ path: "images.0", message: "You can attach only photos you uploaded, or ones already in this dialog" });
    expect(await countIn(elsewhere)).toBe(0);
  });

  it("a non-image upload is refused by the pipeline, so it never has a path to send", async () => {
    const res = await upload(storageRoute, { token: a.accessToken, bytes: new TextEncoder().encode("<svg onload=alert(1)>"), filename: "x.png", contentType: "image/png" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.message).toBeTruthy();
  });

  it("a block either way refuses a message with photos (403, nothing stored); a retry with other photos is a conflict", async () => {
    const mine = await uploads(a, 2);
    const clientId = crypto.randomUUID();
    expect((await send(a, dialogId, { images: [mine[0]], clientId })).status).toBe(201);
    const retried = await send(a, dialogId, { images: [mine[0]], clientId });
    expect(retried.status).toBe(200);
    const conflict = await send(a, dialogId, { images: [mine[1]], clientId });
    expect(conflict.status).toBe(409);
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    const before = await countIn(dialogId);
    const refused = await send(a, dialogId, { messageText: "", images: mine });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(await countIn(dialogId)).toBe(before);
  });

  it("deleting for both takes the photos away with the text", async () => {
    const mine = await uploads(a, 1);
    const m = (await send(a, dialogId, { messageText: "oops", images: mine })).body;
    const res = await call(deleteRoute, {
      method: "DELETE",
      token: a.accessToken,
      params: { id: String(dialogId), messageId: String(m.id) },
      path: `/api/v1/dialogs/${dialogId}/messages/${m.id}?forEveryone=true`,
      headers: EN,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, messageText: "", images: [] });
    const [row] = await getDb().execute<{ images: string[] | null }>(sql`select images from messages where id = ${m.id}`);
    expect(row.images).toBeNull();
    expect((await history(b, dialogId)).body.content[0].images).toEqual([]);
  });

  it("counts against the per-account message limit like any message (429)", async () => {
    const mine = await uploads(a, 1);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(a, dialogId, { images: mine })).status);
    expect(statuses.slice(0, 6)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(statuses.slice(6)).toEqual([429, 429]);
  });
});

describe("the socket's MESSAGE frame with images", () => {
  it("is stored and delivered with its photos; a bad list is rejected with the REST refusal's text", async () => {
    const mine = await uploads(a, 2);
    const [a1, b1] = await Promise.all([TestSocket.open(server.port, { token: a.accessToken }), TestSocket.open(server.port, { token: b.accessToken })]);
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "", images: mine } });
    expect((await nextOf(b1, "MESSAGE")).data).toMatchObject({ messageText: "", images: mine, authorId: a.id });
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "", images: stock } });
    expect((await nextOf(a1, "MESSAGE_REJECTED")).data).toMatchObject({ status: 422, messageKey: "chatErrors.tooManyImages" });
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "x", images: ["https://evil.example/a.webp"] } });
    expect((await nextOf(a1, "MESSAGE_REJECTED")).data).toMatchObject({ status: 422, messageKey: "chatErrors.imageNotStored" });
    await Promise.all([a1.close(), b1.close()]);
  });
});

describe("the data archive", () => {
  it("lists each message's photos as their files in the archive and collects their keys", async () => {
    const mine = await uploads(a, 2);
    await send(a, dialogId, { messageText: "two", images: mine });
    await send(b, dialogId, { messageText: "none" });
    const keys = new Set<string>();
    const listed = [];
    for await (const m of messagesOf(getDb(), b.id, dialogId, keys)) listed.push(m);
    expect(listed.map((m) => [m.direction, m.text, m.images])).toEqual([
      ["RECEIVED", "two", mine.map((p) => `images/${p.split("/").pop()}`)],
      ["SENT", "none", []],
    ]);
    expect([...keys]).toEqual(mine.map((p) => p.split("/").pop()));
  });
});
