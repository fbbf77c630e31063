// The chat outbox against the real message route (issue 44, docs/adr/0179): the page's round and the
// worker's Background Sync round racing over the same kept messages store each once; a message the server
// refuses for good leaves the outbox; another account's kept message is dropped, never sent as the person
// signed in now. And the share target's answer when no service worker took the share: nothing read, nothing kept.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { POST as createRoute } from "@/app/api/v1/dialogs/route";
import { POST as shareFallback } from "@/app/share/receive/route";
import { getDb } from "@/db/client";
import { flushOutbox, outboxRequest, outcomeOf, type OutboxItem } from "@/lib/pwa/device/outbox";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account;
let b: Account;

beforeEach(async () => {
  [a, b] = await Promise.all([signedInAccount({ firstName: "Anna", lastName: "Tunnel" }), signedInAccount({ firstName: "Boris", lastName: "Reader" })]);
});

async function dialogOf(x: Account, y: Account): Promise<number> {
  const res = await call(createRoute, { method: "POST", token: x.accessToken, body: { recipientId: y.id } });
  expect([200, 201]).toContain(res.status);
  return res.body.id;
}

const countMessages = async (dialogId: number, text: string) =>
  Number((await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where dialog_id = ${dialogId} and message_text = ${text}`))[0].n);

/** What the page (api()) and the worker (fetch) both do with a kept message: its POST, as `who`. */
function sender(who: Account) {
  return async (item: OutboxItem) => {
    const { body } = outboxRequest(item);
    const res = await call(sendRoute, { method: "POST", token: who.accessToken, params: { id: String(item.dialogId) }, body });
    return outcomeOf(res.status);
  };
}

const item = (accountId: number, dialogId: number, text: string): OutboxItem => {
  const clientId = randomUUID();
  return { clientId, accountId, dialogId, body: { messageText: text, clientId }, savedAt: Date.now() };
};

describe("the chat outbox", () => {
  it("two rounds racing over the same kept messages store each once", async () => {
    const dialogId = await dialogOf(a, b);
    const items = [item(a.id, dialogId, "из туннеля 1"), item(a.id, dialogId, "из туннеля 2")];
    const removed: string[] = [];
    const round = () => flushOutbox({ accountId: a.id, items, send: sender(a), remove: async (id) => void removed.push(id) });
    expect(await Promise.all([round(), round(), round()])).toEqual([0, 0, 0]);
    expect(await countMessages(dialogId, "из туннеля 1")).toBe(1);
    expect(await countMessages(dialogId, "из туннеля 2")).toBe(1);
    expect(new Set(removed)).toEqual(new Set(items.map((i) => i.clientId)));
  });

  it("drops a message the server refuses for good, and another account's without sending it", async () => {
    const dialogId = await dialogOf(a, b);
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    const refused = item(a.id, dialogId, "после блокировки");
    const foreign = item(b.id, dialogId, "чужое");
    const removed: string[] = [];
    const left = await flushOutbox({ accountId: a.id, items: [refused, foreign], send: sender(a), remove: async (id) => void removed.push(id) });
    expect(left).toBe(0);
    expect(removed.sort()).toEqual([refused.clientId, foreign.clientId].sort());
    expect(await countMessages(dialogId, "после блокировки")).toBe(0);
    expect(await countMessages(dialogId, "чужое")).toBe(0);
  });
});

describe("the share target without a service worker", () => {
  it("reads nothing and sends the page to say so", () => {
    const res = shareFallback();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/share?error=failed");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
