import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { getDb } from "@/db/client";
import { createDialog, markDialogRead } from "@/lib/server/services/dialogs/dialogs";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { commitEvent, TestSocket, type Frame } from "./helpers/ws-client";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

const open = (who: Account, lastEventId?: number) => TestSocket.open(server.port, { token: who.accessToken, lastEventId });

/** The next frame of one of `types`, skipping others (READY, presence, friend events …). */
async function nextOf(socket: TestSocket, ...types: string[]): Promise<Frame> {
  for (;;) {
    const f = await socket.next();
    if (types.includes(f.type)) return f;
  }
}

/** Proves that no chat frame reached any of the sockets before a marker event committed now. */
async function expectNoChatFrames(sockets: [TestSocket, Account][]): Promise<void> {
  const marker = await commitEvent([...new Set(sockets.map(([, who]) => who.id))], { marker: true }, "MARKER");
  for (const [socket] of sockets) {
    const f = await nextOf(socket, "MARKER", "MESSAGE", "TYPING", "DIALOG_READ", "MESSAGE_REJECTED");
    expect(f).toMatchObject({ id: marker, type: "MARKER" });
  }
}

async function pair(): Promise<{ a: Account; b: Account; dialogId: number }> {
  const [a, b] = await Promise.all([signedInAccount({ firstName: "Anna" }), signedInAccount({ firstName: "Boris" })]);
  const { dialog } = await createDialog({ ctx: a.ctx, input: { recipientId: b.id } });
  return { a, b, dialogId: dialog.id };
}

const post = (who: Account, dialogId: number, messageText: string, clientId?: string) =>
  call(sendRoute, { method: "POST", token: who.accessToken, params: { id: String(dialogId) }, body: { messageText, clientId } });

describe("chat over the socket", () => {
  it("a posted message reaches every tab of both partners exactly once, as POST answered it", async () => {
    const { a, b, dialogId } = await pair();
    const [b1, b2, a1] = await Promise.all([open(b), open(b), open(a)]);
    const res = await post(a, dialogId, "Привет!");
    expect(res.status).toBe(201);
    for (const s of [b1, b2, a1]) {
      const f = await nextOf(s, "MESSAGE");
      expect(f).toEqual({ id: expect.any(Number), type: "MESSAGE", data: res.body });
    }
    await expectNoChatFrames([
      [b1, b],
      [b2, b],
      [a1, a],
    ]);
    await Promise.all([b1, b2, a1].map((s) => s.close()));
  });

  it("a reconnect with the last event id gets what was missed, in order, once", async () => {
    const { a, b, dialogId } = await pair();
    const b1 = await open(b);
    const first = await post(a, dialogId, "one");
    const seen = await nextOf(b1, "MESSAGE");
    expect(seen.data).toMatchObject({ id: first.body.id });
    await b1.close();
    const missed = [];
    for (const t of ["two", "three", "four"]) missed.push((await post(a, dialogId, t)).body.id);
    const b2 = await open(b, seen.id);
    const got = [];
    for (let i = 0; i < 3; i++) got.push((await nextOf(b2, "MESSAGE")).data as { id: number });
    expect(got.map((m) => m.id)).toEqual(missed);
    await expectNoChatFrames([[b2, b]]);
    await b2.close();
  });

  it("a message sent on the socket is stored once (clientId) and delivered to both; refusals answer MESSAGE_REJECTED", async () => {
    const { a, b, dialogId } = await pair();
    const [a1, a2, b1] = await Promise.all([open(a), open(a), open(b)]);
    const clientId = randomUUID();
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "  через сокет ", clientId } });
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "  через сокет ", clientId } }); // a retry
    const delivered = await nextOf(b1, "MESSAGE");
    expect(delivered.data).toMatchObject({ dialogId, authorId: a.id, recipientId: b.id, messageText: "через сокет", clientId, readStatus: "SENT" });
    expect((await nextOf(a1, "MESSAGE")).data).toEqual(delivered.data);
    expect((await nextOf(a2, "MESSAGE")).data).toEqual(delivered.data);
    // The original client's form: recipientId instead of dialogId reaches the same dialog.
    b1.send({ type: "MESSAGE", data: { recipientId: a.id, messageText: "ответ" } });
    expect((await nextOf(a1, "MESSAGE")).data).toMatchObject({ dialogId, authorId: b.id, messageText: "ответ" });
    expect((await nextOf(b1, "MESSAGE")).data).toMatchObject({ authorId: b.id, messageText: "ответ" });
    const [stored] = await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where dialog_id = ${dialogId}`);
    expect(Number(stored.n)).toBe(2);

    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "ok", clientId: "c1" } });
    expect(await nextOf(a1, "MESSAGE_REJECTED")).toEqual({
      type: "MESSAGE_REJECTED",
      data: { clientId: "c1", dialogId, recipientId: null, status: 422, code: "validation_failed", messageKey: "chatErrors.badClientId" },
    });
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "x".repeat(4001) } });
    expect((await nextOf(a1, "MESSAGE_REJECTED")).data).toMatchObject({ status: 422, messageKey: "chatErrors.textTooLong" });
    a1.send({ type: "MESSAGE", data: { dialogId: 999_999_999, messageText: "hi" } });
    expect((await nextOf(a1, "MESSAGE_REJECTED")).data).toMatchObject({ status: 404, messageKey: "chatErrors.dialogNotFound" });
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "after the block" } });
    expect((await nextOf(a1, "MESSAGE_REJECTED")).data).toMatchObject({ status: 403, code: "forbidden", messageKey: "chatErrors.blocked" });
    await expectNoChatFrames([[b1, b]]);
    const [after] = await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where dialog_id = ${dialogId}`);
    expect(Number(after.n)).toBe(2);
    await Promise.all([a1, a2, b1].map((s) => s.close()));
  });

  it("TYPING reaches the partner only, and never from a stranger", async () => {
    const { a, b, dialogId } = await pair();
    const c = await signedInAccount({ firstName: "Chen" });
    const [a1, a2, b1, c1] = await Promise.all([open(a), open(a), open(b), open(c)]);
    a1.send({ type: "TYPING", dialogId });
    expect(await nextOf(b1, "TYPING")).toEqual({ type: "TYPING", data: { dialogId, accountId: a.id } });
    // Not to the typer's other tab, not to anyone else.
    await expectNoChatFrames([
      [a1, a],
      [a2, a],
      [b1, b],
      [c1, c],
    ]);
    // A stranger's TYPING into someone else's dialog goes nowhere.
    c1.send({ type: "TYPING", dialogId });
    await expectNoChatFrames([
      [a1, a],
      [a2, a],
      [b1, b],
      [c1, c],
    ]);
    await Promise.all([a1, a2, b1, c1].map((s) => s.close()));
  });

  it("marking read turns the author's ticks live; presence reaches the partner", async () => {
    const { a, b, dialogId } = await pair();
    const a1 = await open(a);
    const sent = await post(a, dialogId, "read me");
    await nextOf(a1, "MESSAGE");
    await markDialogRead({ ctx: b.ctx, input: { id: dialogId } });
    expect((await nextOf(a1, "DIALOG_READ")).data).toMatchObject({ dialogId, readerId: b.id, authorId: a.id, lastReadMessageId: sent.body.id });
    // b comes online: a, whose dialog partner b is, is told.
    const b1 = await open(b);
    for (;;) {
      const f = await a1.next();
      if (f.type === "PRESENCE" && (f.data as { accountId: number }).accountId === b.id) {
        expect(f.data).toMatchObject({ isOnline: true });
        break;
      }
    }
    await b1.close();
    for (;;) {
      const f = await a1.next();
      if (f.type === "PRESENCE" && (f.data as { accountId: number }).accountId === b.id) {
        expect(f.data).toMatchObject({ isOnline: false, lastOnlineTime: expect.any(String) });
        break;
      }
    }
    await a1.close();
  });
});
