// Issue 40 item 21: a client written to the specification (spec section 7: the socket carries MESSAGE and
// NOTIFICATION) opens the socket without `frames=all` and must never meet another frame type — READY,
// DIALOG_READ, PRESENCE, TYPING, live list updates —, while Krug's own client (frames=all) gets them all and
// resume by lastEventId works for both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { createDialog, markDialogRead } from "@/lib/server/services/dialogs/dialogs";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { commitEvent, refusedStatus, TestSocket, type Frame } from "./helpers/ws-client";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

/** Frames up to and including the event `id` (every frame type, READY included). */
async function framesThrough(socket: TestSocket, id: number): Promise<Frame[]> {
  const out: Frame[] = [];
  for (;;) {
    const f = await socket.next();
    out.push(f);
    if (f.id === id) return out;
  }
}

/** The next frame of `type`; every frame read on the way is recorded in `seen`. */
async function nextOf(socket: TestSocket, type: string, seen: string[]): Promise<Frame> {
  for (;;) {
    const f = await socket.next();
    seen.push(f.type);
    if (f.type === type) return f;
  }
}

async function pair(): Promise<{ a: Account; b: Account; dialogId: number }> {
  const [a, b] = await Promise.all([signedInAccount({ firstName: "Anna" }), signedInAccount({ firstName: "Boris" })]);
  const { dialog } = await createDialog({ ctx: a.ctx, input: { recipientId: b.id } });
  return { a, b, dialogId: dialog.id };
}

describe("a socket opened without frames=all (a client of the specification)", () => {
  it("receives MESSAGE and NOTIFICATION only — no READY, read receipt, presence, typing or other event — while frames=all gets them all", async () => {
    const { a, b, dialogId } = await pair();
    const spec = await TestSocket.connect(server.port, { token: b.accessToken, frames: "spec" });
    const own = await TestSocket.open(server.port, { token: b.accessToken });
    const ownSeen: string[] = [];
    // Anna comes online (PRESENCE to her partner), types (TYPING), writes (MESSAGE), Boris reads (DIALOG_READ).
    const anna = await TestSocket.open(server.port, { token: a.accessToken });
    expect(await nextOf(own, "PRESENCE", ownSeen)).toMatchObject({ type: "PRESENCE", data: { accountId: a.id } });
    anna.send({ type: "TYPING", dialogId });
    expect(await nextOf(own, "TYPING", ownSeen)).toEqual({ type: "TYPING", data: { dialogId, accountId: a.id } });
    const sent = await call(sendRoute, { method: "POST", token: a.accessToken, params: { id: String(dialogId) }, body: { messageText: "Привет!" } });
    expect(sent.status).toBe(201);
    await markDialogRead({ ctx: b.ctx, input: { id: dialogId } });
    await nextOf(own, "DIALOG_READ", ownSeen);
    await commitEvent([b.id], { open: 1 }, "REPORTS_CHANGED");
    const notification = await commitEvent([b.id], { receiverId: b.id, notificationType: "FRIEND_REQUEST" }, "NOTIFICATION");

    // The message, its notification (notificationType MESSAGE) and the friend request: nothing else.
    const got = await framesThrough(spec, notification);
    expect(got.map((f) => f.type)).toEqual(["MESSAGE", "NOTIFICATION", "NOTIFICATION"]);
    expect(got[0]).toEqual({ id: expect.any(Number), type: "MESSAGE", data: sent.body });
    expect(got[1].data).toMatchObject({ notificationType: "MESSAGE", content: "Привет!" });
    expect(got[2]).toEqual({ id: notification, type: "NOTIFICATION", data: { receiverId: b.id, notificationType: "FRIEND_REQUEST" } });
    // Krug's own client saw the same events and all the others.
    ownSeen.push(...(await framesThrough(own, notification)).map((f) => f.type));
    expect(ownSeen.sort()).toEqual(["DIALOG_READ", "MESSAGE", "NOTIFICATION", "NOTIFICATION", "PRESENCE", "REPORTS_CHANGED", "TYPING"]);
    // Nothing else was queued for the specification's socket in between: the next frame is the next event.
    const marker = await commitEvent([b.id], { n: 1 }, "NOTIFICATION");
    expect(await spec.next()).toMatchObject({ id: marker, type: "NOTIFICATION" });
    await Promise.all([spec.close(), own.close(), anna.close()]);
  });

  it("resumes by lastEventId with the missed MESSAGE and NOTIFICATION events in order, skipping the rest, and answers RESUME without READY", async () => {
    const bob = await signedInAccount();
    const before = await commitEvent([bob.id], { n: 0 }, "NOTIFICATION");
    const m = await commitEvent([bob.id], { dialogId: 1, text: "пропущено" }, "MESSAGE");
    await commitEvent([bob.id], { dialogId: 1 }, "DIALOG_READ");
    const n = await commitEvent([bob.id], { n: 1 }, "NOTIFICATION");

    const spec = await TestSocket.connect(server.port, { token: bob.accessToken, frames: "spec", lastEventId: before });
    expect(await framesThrough(spec, n)).toEqual([
      { id: m, type: "MESSAGE", data: { dialogId: 1, text: "пропущено" } },
      { id: n, type: "NOTIFICATION", data: { n: 1 } },
    ]);
    // The same from the open socket: a RESUME replays what followed the message, and ends without READY.
    spec.send({ type: "RESUME", lastEventId: m });
    const marker = await commitEvent([bob.id], { n: 2 }, "NOTIFICATION");
    expect((await framesThrough(spec, marker)).map((f) => f.id)).toEqual([n, marker]);
    const last = await commitEvent([bob.id], { n: 3 }, "NOTIFICATION");
    expect(await spec.next()).toMatchObject({ id: last, type: "NOTIFICATION" });
    // Krug's own client resumes as before: the missed events of every type, then READY.
    const own = await TestSocket.open(server.port, { token: bob.accessToken, lastEventId: before });
    expect(own.ready.lastEventId).toBe(last);
    expect((await own.eventsThrough(last)).map((f) => f.type)).toEqual(["MESSAGE", "DIALOG_READ", "NOTIFICATION", "NOTIFICATION", "NOTIFICATION"]);
    await Promise.all([spec.close(), own.close()]);
  });

  it("refuses an unknown frames value with 400", async () => {
    const bob = await signedInAccount();
    expect(await refusedStatus(server.port, { token: bob.accessToken, frames: "spec", path: "/api/v1/streaming/ws?frames=everything" })).toBe(400);
  });
});
