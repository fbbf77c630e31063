// Issue 41: group conversations over the socket — a message reaches every present member's tabs once, a
// socket frame sends to a group, typing goes to the other members, a resume after a gap gets what was
// missed, and someone removed gets nothing more (docs/adr/0169).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, createGroup, removeMember } from "@/lib/server/services/dialogs/groups";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
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

async function nextOf(socket: TestSocket, ...types: string[]): Promise<Frame> {
  for (;;) {
    const f = await socket.next();
    if (types.includes(f.type)) return f;
  }
}

/** The next MESSAGE frame with this text (the creation's line may still arrive live first: the sidecar sequences after commit). */
async function nextSaying(socket: TestSocket, text: string): Promise<Frame> {
  for (;;) {
    const f = await nextOf(socket, "MESSAGE");
    if ((f.data as { messageText: string }).messageText === text) return f;
  }
}

/** No chat frame reached these sockets before a marker committed now. */
async function expectNothingBefore(sockets: [TestSocket, Account][]): Promise<void> {
  const marker = await commitEvent([...new Set(sockets.map(([, who]) => who.id))], { marker: true }, "MARKER");
  for (const [socket] of sockets) expect(await nextOf(socket, "MARKER", "MESSAGE", "TYPING", "DIALOG_CHANGED")).toMatchObject({ id: marker, type: "MARKER" });
}

async function trio() {
  const [a, b, c] = await Promise.all([
    signedInAccount({ firstName: "Anna" }),
    signedInAccount({ firstName: "Boris" }),
    signedInAccount({ firstName: "Chen" }),
  ]);
  const group = await createGroup({ ctx: a.ctx, input: { title: "Live", memberIds: [b.id, c.id] } });
  return { a, b, c, dialogId: group.id };
}

describe("group conversations over the socket", () => {
  it("a message sent as a socket frame reaches every member's tabs once, with its author's card", async () => {
    const { a, b, c, dialogId } = await trio();
    const [a1, b1, b2, c1] = await Promise.all([open(a), open(b), open(b), open(c)]);
    const clientId = randomUUID();
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "Всем привет", clientId } });
    for (const s of [a1, b1, b2, c1]) {
      const f = await nextSaying(s, "Всем привет");
      expect(f.data).toMatchObject({ dialogId, messageText: "Всем привет", clientId, recipientId: null, author: { id: a.id, firstName: "Anna" } });
    }
    await expectNothingBefore([
      [a1, a],
      [b1, b],
      [b2, b],
      [c1, c],
    ]);
    // Typing goes to the other members, not back to the typist.
    b1.send({ type: "TYPING", dialogId });
    for (const s of [a1, c1]) expect(await nextOf(s, "TYPING")).toEqual({ type: "TYPING", data: { dialogId, accountId: b.id } });
    await expectNothingBefore([[b1, b]]);
    await Promise.all([a1, b1, b2, c1].map((s) => s.close()));
  });

  it("a member away gets what was missed on resume; a removed member gets the line of it, then nothing — not even typing", async () => {
    const { a, b, c, dialogId } = await trio();
    const c1 = await open(c);
    await sendMessage({ ctx: a.ctx, input: { dialogId, messageText: "one" } });
    const seen = await nextSaying(c1, "one");
    await c1.close();
    for (const t of ["two", "three"]) await sendMessage({ ctx: b.ctx, input: { dialogId, messageText: t } });
    const c2 = await open(c, seen.id);
    expect([(await nextOf(c2, "MESSAGE")).data, (await nextOf(c2, "MESSAGE")).data].map((m) => (m as { messageText: string }).messageText)).toEqual(["two", "three"]);

    await removeMember({ ctx: a.ctx, input: { id: dialogId, accountId: c.id } });
    const removedLine = await nextOf(c2, "MESSAGE");
    expect(removedLine.data).toMatchObject({ event: { type: "REMOVED", targetIds: [c.id] } });
    expect((await nextOf(c2, "DIALOG_CHANGED")).data).toEqual({ dialogId });
    const a1 = await open(a);
    await sendMessage({ ctx: a.ctx, input: { dialogId, messageText: "after Chen" } });
    a1.send({ type: "TYPING", dialogId });
    await expectNothingBefore([[c2, c]]);
    // Chen's own frame to the group is refused, as POST would be.
    c2.send({ type: "MESSAGE", data: { dialogId, messageText: "let me back", clientId: randomUUID() } });
    expect(await nextOf(c2, "MESSAGE_REJECTED")).toMatchObject({ data: { status: 403 } });
    // A resume from the line of the removal replays the change it was told of, and nothing of the group after.
    const c3 = await open(c, removedLine.id);
    expect((await nextOf(c3, "DIALOG_CHANGED", "MESSAGE")).type).toBe("DIALOG_CHANGED");
    const marker = await commitEvent([c.id], { marker: true }, "MARKER");
    for (;;) {
      // (The earlier marker was Chen's own event: it is replayed too.)
      const f = await nextOf(c3, "MARKER", "MESSAGE", "DIALOG_CHANGED", "TYPING");
      expect(f.type).toBe("MARKER");
      if (f.id === marker) break;
    }
    // Someone added later resumes from before they joined: only what they were sent, from the line that added them.
    const d = await signedInAccount({ firstName: "Dina" });
    await addMembers({ ctx: a.ctx, input: { id: dialogId, accountIds: [d.id] } });
    const d1 = await open(d, seen.id);
    const first = await nextOf(d1, "MESSAGE");
    expect(first.data).toMatchObject({ event: { type: "ADDED", targetIds: [d.id] } });
    await Promise.all([a1.close(), c2.close(), c3.close(), d1.close()]);
  });
});
