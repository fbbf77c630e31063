// Issue 41: push for group conversations (docs/adr/0169) — one per device and conversation for a burst, the
// conversation's name before the words; none to the author, a muted member, one who left, or across a
// block; a mention reaches a muted member through its notification.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as subscribe } from "@/app/api/v1/push/subscriptions/route";
import { getDb } from "@/db/client";
import { sequenceEvents } from "@/lib/server/events/outbox";
import { closeRateLimitStore } from "@/lib/server/http/rate-limit";
import { createGroup, muteGroup, removeMember } from "@/lib/server/services/dialogs/groups";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { drainPushQueue } from "@/lib/server/services/push/deliver";
import { dispatchPushes } from "@/lib/server/services/push/dispatch";
import en from "@/messages/en.json";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { startPushService, type PushService } from "./helpers/push-service";

vi.stubEnv("RATE_LIMIT_PUSH_SUBSCRIBE", "30/1h");

let push: PushService;
beforeAll(async () => {
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
  await closeRateLimitStore();
  vi.unstubAllEnvs();
});

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const device = async (a: Account) => {
  const d = push.device(201);
  const res = await call(subscribe, { token: a.accessToken, body: d.body, headers: { "accept-language": "en", "user-agent": "Mozilla/5.0 (Linux; Android 14) Chrome/140.0 Mobile Safari/537.36" } });
  expect(res.status).toBe(201);
  return d;
};
async function pushNow() {
  await sequenceEvents(getDb());
  const queued = await dispatchPushes(getDb(), []);
  const outcomes = await drainPushQueue(getDb(), push.sender);
  return { queued, outcomes };
}
const bodiesAt = (endpoint: string) => push.received.filter((r) => push.origin + r.path === endpoint).map((r) => r.payload as { title: string; body: string; tag: string; url: string });
const sentence = (content: string) => en.notifications.sentence.MESSAGE.replace("{content}", content);

describe("push in group conversations", () => {
  let owner: Account;
  let b: Account;
  let c: Account;
  let dialogId: number;
  let devB: Awaited<ReturnType<typeof device>>;
  let devC: Awaited<ReturnType<typeof device>>;
  let devOwner: Awaited<ReturnType<typeof device>>;

  beforeEach(async () => {
    [owner, b, c] = await Promise.all([
      signedInAccount({ firstName: "Anna", lastName: "Owner" }),
      signedInAccount({ firstName: "Boris", lastName: "Member" }),
      signedInAccount({ firstName: "Chen", lastName: "Member" }),
    ]);
    [devB, devC, devOwner] = [await device(b), await device(c), await device(owner)];
    dialogId = (await createGroup({ ctx: owner.ctx, input: { title: "House 5", memberIds: [b.id, c.id] } })).id;
    await pushNow(); // the cursor starts at the newest event; the GROUP_ADDED notices go out here
  });

  it("reaches every other member's device, collapsed per conversation, with the conversation's name; never the author", async () => {
    const before = push.received.length;
    for (const text of ["one", "two", "three"]) await sendMessage({ ctx: owner.ctx, input: { dialogId, messageText: text } });
    const { outcomes } = await pushNow();
    expect(outcomes).toEqual(["sent", "sent"]);
    const got = push.received.slice(before);
    expect(got).toHaveLength(2);
    for (const dev of [devB, devC]) {
      expect(bodiesAt(dev.endpoint).at(-1)).toEqual(expect.objectContaining({ title: "Anna Owner", body: sentence("House 5: three"), tag: `dialog-${dialogId}`, url: `/im/${dialogId}` }));
    }
    expect(bodiesAt(devOwner.endpoint).some((p) => p.tag === `dialog-${dialogId}`)).toBe(false);
  });

  it("nothing for a muted member, one who left, or across a block; a mention reaches a muted member", async () => {
    await muteGroup({ ctx: b.ctx, input: { id: dialogId, duration: "EIGHT_HOURS" } });
    await blockAccount({ ctx: c.ctx, input: { id: owner.id } });
    await sendMessage({ ctx: owner.ctx, input: { dialogId, messageText: "quiet please" } });
    expect(await pushNow()).toEqual({ queued: 0, outcomes: [] });
    await sendMessage({ ctx: owner.ctx, input: { dialogId, messageText: "@Boris you are needed", mentions: [b.id] } });
    expect((await pushNow()).outcomes).toEqual(["sent"]);
    expect(bodiesAt(devB.endpoint).at(-1)).toMatchObject({ body: sentence("@Boris you are needed"), tag: `dialog-${dialogId}` });
    await removeMember({ ctx: owner.ctx, input: { id: dialogId, accountId: b.id } });
    await muteGroup({ ctx: b.ctx, input: { id: dialogId, duration: "OFF" } }).catch(() => undefined);
    await sendMessage({ ctx: owner.ctx, input: { dialogId, messageText: "after you left" } });
    await pushNow();
    expect(JSON.stringify(push.received)).not.toContain("after you left");
    expect(JSON.stringify(push.received)).not.toContain("quiet please");
  });
});
