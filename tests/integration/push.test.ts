// Issue 25 section 2: Web Push subscriptions (REST) and delivery through the job queue to a push service
// standing in on this machine, which checks the VAPID JWT and decrypts every payload (RFC 8291, http_ece).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DELETE as deleteDevice } from "@/app/api/v1/push/subscriptions/[id]/route";
import { GET as listDevices, POST as subscribe } from "@/app/api/v1/push/subscriptions/route";
import { GET as publicKey } from "@/app/api/v1/push/vapid-public-key/route";
import { getDb, getSql } from "@/db/client";
import { sequenceEvents } from "@/lib/server/events/outbox";
import { closeRateLimitStore } from "@/lib/server/http/rate-limit";
import { getBoss, QUEUES } from "@/lib/server/jobs/boss";
import { anonymiseExpiredAccounts } from "@/lib/server/services/accounts/anonymise";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { blockAccount, sendFriendRequest, subscribeToAccount } from "@/lib/server/services/friends/actions";
import { setNotificationSetting } from "@/lib/server/services/notifications/settings";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import { drainPushQueue } from "@/lib/server/services/push/deliver";
import { dispatchPushes } from "@/lib/server/services/push/dispatch";
import { PUSH_DEVICES_MAX } from "@/lib/server/services/push/subscriptions";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { createRealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { startPushService, type PushService } from "./helpers/push-service";
import { TestSocket } from "./helpers/ws-client";
import { newPost } from "./post-support";

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
const post = (a: Account, body: unknown, language = "en") =>
  call(subscribe, { token: a.accessToken, body, headers: { "accept-language": language, "user-agent": "Mozilla/5.0 (Linux; Android 14) Chrome/140.0 Mobile Safari/537.36" } });
const rowsOf = (accountId: number) => getSql()<{ id: string; endpoint: string; language: string; last_success_at: Date | null }[]>`
  select id, endpoint, language, last_success_at from push_subscriptions where account_id = ${accountId} order by id`;

/** What the sidecar does after a drain: sequence, dispatch (nobody live), then the worker delivers. */
async function pushNow(live: number[] = []) {
  await sequenceEvents(getDb());
  const queued = await dispatchPushes(getDb(), live);
  const outcomes = await drainPushQueue(getDb(), push.sender);
  return { queued, outcomes };
}
const receivedAt = (endpoint: string) => push.received.filter((r) => push.origin + r.path === endpoint);

describe("POST/GET/DELETE push/subscriptions", () => {
  it("subscribes a browser once per endpoint, lists it with the VAPID key, and removes it", async () => {
    const a = await signedInAccount();
    const d = push.device(201);
    const first = await post(a, d.body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ userAgentLabel: "Chrome · Android", language: "en", lastSuccessAt: null });
    const again = await post(a, { ...d.body, expirationTime: null }, "ru");
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await rowsOf(a.id)).toMatchObject([{ endpoint: d.endpoint, language: "ru" }]);

    const list = await call(listDevices, { token: a.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.devices).toEqual([again.body]);
    expect(list.body.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await call(publicKey, { token: a.accessToken })).body).toEqual({ vapidPublicKey: list.body.vapidPublicKey });

    const gone = await call(deleteDevice, { method: "DELETE", token: a.accessToken, params: { id: String(first.body.id) } });
    expect(gone.status).toBe(204);
    expect(await rowsOf(a.id)).toEqual([]);
  });

  it("needs a session", async () => {
    expect((await call(subscribe, { body: push.device(201).body })).status).toBe(401);
    expect((await call(listDevices, {})).status).toBe(401);
  });

  it("keeps another account's devices out of reach: not listed, not deletable (404), and an endpoint moves to whoever subscribes it now", async () => {
    const a = await signedInAccount();
    const b = await signedInAccount();
    const d = push.device(201);
    const mine = await post(a, d.body);
    expect((await call(listDevices, { token: b.accessToken })).body.devices).toEqual([]);
    const refused = await call(deleteDevice, { method: "DELETE", token: b.accessToken, params: { id: String(mine.body.id) } });
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe(ru.pushErrors.notFound);
    expect(await rowsOf(a.id)).toHaveLength(1);
    for (const id of ["0", "-1", "abc", "1e400", "9".repeat(40)]) {
      const res = await call(deleteDevice, { method: "DELETE", token: a.accessToken, params: { id } });
      expect([404, 422], id).toContain(res.status);
    }
    expect(await rowsOf(a.id)).toHaveLength(1);

    const moved = await post(b, d.body);
    expect(moved.status).toBe(201);
    expect(await rowsOf(a.id)).toEqual([]);
    expect(await rowsOf(b.id)).toMatchObject([{ endpoint: d.endpoint }]);
  });

  it("an erased account's devices go with it", async () => {
    const a = await signedInAccount();
    expect((await post(a, push.device(201).body)).status).toBe(201);
    await getSql()`update accounts set is_deleted = true, deletion_timestamp = now() - interval '400 days' where id = ${a.id}`;
    expect(await anonymiseExpiredAccounts(getDb(), new Date())).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(a.id)).toEqual([]);
  });

  it("refuses hostile input with a 4xx and stores nothing", async () => {
    const a = await signedInAccount();
    const good = push.device(201).body;
    const p256dh65 = good.keys.p256dh;
    const bodies: unknown[] = [
      null,
      [],
      "endpoint",
      {},
      { endpoint: good.endpoint },
      { ...good, endpoint: "http://127.0.0.1/push/x" },
      { ...good, endpoint: "javascript:alert(1)" },
      { ...good, endpoint: `${good.endpoint}\u0000x` },
      { ...good, endpoint: `${good.endpoint} x` },
      { ...good, endpoint: "https://user:pass@example.com/x" },
      { ...good, endpoint: `https://example.com/${"a".repeat(2000)}` },
      { ...good, endpoint: 42 },
      { ...good, keys: null },
      { ...good, keys: { p256dh: p256dh65.slice(0, -2), auth: good.keys.auth } },
      { ...good, keys: { p256dh: p256dh65 + "AA", auth: good.keys.auth } },
      { ...good, keys: { p256dh: p256dh65, auth: Buffer.alloc(15).toString("base64url") } },
      { ...good, keys: { p256dh: p256dh65, auth: Buffer.alloc(32).toString("base64url") } },
      { ...good, keys: { p256dh: p256dh65.replace(/^./, "+"), auth: good.keys.auth } },
      { ...good, keys: { p256dh: `${p256dh65.slice(0, -1)}\u0000`, auth: good.keys.auth } },
      { ...good, keys: { p256dh: "x".repeat(50_000), auth: good.keys.auth } },
      { ...good, keys: { p256dh: p256dh65, auth: 12345 } },
    ];
    for (const body of bodies) {
      const res = await post(a, body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const huge = await call(subscribe, { token: a.accessToken, rawBody: JSON.stringify({ ...good, endpoint: "https://x.example/" + "a".repeat(200_000) }), headers: { "content-type": "application/json" } });
    expect(huge.status).toBe(413);
    expect((await call(subscribe, { token: a.accessToken, rawBody: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    const wrongLength = await post(a, { ...good, keys: { p256dh: p256dh65, auth: "AAAA" } }, "ru");
    expect(wrongLength.body.error.issues).toEqual([{ path: "keys.auth", message: ru.pushErrors.badKeys }]);
    expect(await rowsOf(a.id)).toEqual([]);
  });

  it(`keeps at most ${PUSH_DEVICES_MAX} devices per account, then refuses more (409) while known ones still re-subscribe; RATE_LIMIT_PUSH_SUBSCRIBE ends the rest (429)`, async () => {
    const a = await signedInAccount();
    const devices = Array.from({ length: PUSH_DEVICES_MAX }, () => push.device(201));
    const answers = await Promise.all(devices.map((d) => post(a, d.body)));
    expect(answers.map((r) => r.status)).toEqual(devices.map(() => 201));
    const over = await post(a, push.device(201).body);
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe(en.pushErrors.tooManyDevices);
    expect(await rowsOf(a.id)).toHaveLength(PUSH_DEVICES_MAX);
    expect((await post(a, devices[0].body)).status).toBe(200);
    // 22 counted so far of 30 per hour.
    const rest = [];
    for (let i = 0; i < 9; i++) rest.push((await post(a, devices[1].body)).status);
    expect(rest).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    const other = await signedInAccount();
    expect((await post(other, push.device(201).body)).status).toBe(201);
  });
});

describe("delivery through the queue to the push service", () => {
  let a: Account;
  let b: Account;
  let en201: ReturnType<PushService["device"]>;
  let ru201: ReturnType<PushService["device"]>;

  beforeEach(async () => {
    a = await signedInAccount({ firstName: "Anna", lastName: "Karenina" });
    b = await signedInAccount({ firstName: "Boris", lastName: "Godunov" });
    en201 = push.device(201);
    ru201 = push.device(201);
    expect((await post(a, en201.body, "en")).status).toBe(201);
    expect((await post(a, ru201.body, "ru")).status).toBe(201);
    await pushNow(); // the dispatcher's cursor starts at the newest event
  });

  it("a chat message reaches each device encrypted, in its language, signed for the endpoint's origin, urgent, collapsing per dialog", async () => {
    const sent = await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "Hello <b>there</b>" } });
    const { queued, outcomes } = await pushNow();
    expect(queued).toBe(2);
    expect(outcomes).toEqual(["sent", "sent"]);
    expect(push.rejected).toEqual([]);
    const dialogId = sent.message.dialogId;
    const [enPush] = receivedAt(en201.endpoint);
    const [ruPush] = receivedAt(ru201.endpoint);
    expect(enPush.payload).toEqual({
      title: "Boris Godunov",
      body: en.notifications.sentence.MESSAGE.replace("{content}", "Hello there"),
      icon: null,
      url: `/im/${dialogId}`,
      tag: `dialog-${dialogId}`,
      type: "MESSAGE",
    });
    expect(ruPush.payload).toMatchObject({ title: "Boris Godunov", body: ru.notifications.sentence.MESSAGE.replace("{content}", "Hello there") });
    for (const r of [enPush, ruPush]) {
      expect(r).toMatchObject({ urgency: "high", ttl: "86400", topic: `dialog-${dialogId}` });
      expect(r.jwt.aud).toBe(push.origin);
      expect(r.jwt.sub).toMatch(/^mailto:/);
      expect(r.vapidKey).toBe((await call(publicKey, { token: a.accessToken })).body.vapidPublicKey);
    }
    expect((await rowsOf(a.id)).every((s) => s.last_success_at !== null)).toBe(true);

    // A burst of ten more: one push per device, the newest text.
    const before = push.received.length;
    for (let i = 1; i <= 10; i++) await sendMessage({ ctx: b.ctx, input: { dialogId, messageText: `burst ${i}` } });
    expect((await pushNow()).outcomes).toEqual(["sent", "sent"]);
    const burst = push.received.slice(before);
    expect(burst.map((r) => (r.payload as { body: string }).body).sort()).toEqual(
      [en.notifications.sentence.MESSAGE, ru.notifications.sentence.MESSAGE].map((s) => s.replace("{content}", "burst 10")).sort(),
    );
    expect(burst.every((r) => r.topic === `dialog-${dialogId}`)).toBe(true);
  });

  it("nothing is pushed to an account with an open socket, for a switched-off type, or from someone it has blocked", async () => {
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "while the tab is open" } });
    expect(await pushNow([a.id])).toEqual({ queued: 0, outcomes: [] });

    await setNotificationSetting({ ctx: a.ctx, input: { notificationType: "MESSAGE", enable: false } });
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "switched off" } });
    expect(await pushNow()).toEqual({ queued: 0, outcomes: [] });
    await setNotificationSetting({ ctx: a.ctx, input: { notificationType: "MESSAGE", enable: true } });

    // Queued, then the block comes before the worker sends it: the text never leaves.
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "secret from a blocked person" } });
    await sequenceEvents(getDb());
    expect(await dispatchPushes(getDb())).toBe(2);
    await blockAccount({ ctx: a.ctx, input: { id: b.id } });
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["skipped", "skipped"]);
    expect(JSON.stringify(push.received)).not.toContain("secret from a blocked person");
    expect(JSON.stringify(push.received)).not.toContain("while the tab is open");
    expect(JSON.stringify(push.received)).not.toContain("switched off");
  });

  it("other notification types: a friend request (normal, the profile) and a like (low urgency, four hours, the post)", async () => {
    await sendFriendRequest({ ctx: b.ctx, input: { id: a.id } });
    expect((await pushNow()).outcomes).toEqual(["sent", "sent"]);
    const request = receivedAt(en201.endpoint).at(-1)!;
    expect(request.payload).toMatchObject({ title: "Boris Godunov", body: en.notifications.sentence.FRIEND_REQUEST, url: `/profile/${b.id}`, type: "FRIEND_REQUEST" });
    expect(request).toMatchObject({ urgency: "normal", ttl: "86400" });

    const mine = await newPost(a.ctx, { title: "My trip" });
    await setPostReaction({ ctx: b.ctx, input: { id: mine.id, body: { type: "POST", reactionType: "heart" } } });
    expect((await pushNow()).outcomes).toEqual(["sent", "sent"]);
    const like = receivedAt(ru201.endpoint).at(-1)!;
    expect(like.payload).toMatchObject({ title: "Boris Godunov", url: `/post/${mine.id}`, type: "LIKE" });
    expect(like).toMatchObject({ urgency: "low", ttl: "14400" });
  });

  it("a post to followers (one shared event for the fan-out) reaches each follower's devices as their own entry", async () => {
    const c = await signedInAccount();
    const cDevice = push.device(201);
    expect((await post(c, cDevice.body)).status).toBe(201);
    await subscribeToAccount({ ctx: a.ctx, input: { id: b.id } });
    await subscribeToAccount({ ctx: c.ctx, input: { id: b.id } });
    await pushNow([b.id]);
    const news = await newPost(b.ctx, { title: "Fresh news" });
    const { queued, outcomes } = await pushNow();
    expect(queued).toBe(3);
    expect(outcomes).toEqual(["sent", "sent", "sent"]);
    const [forC] = receivedAt(cDevice.endpoint);
    const [forA] = receivedAt(en201.endpoint);
    for (const r of [forA, forC]) expect(r.payload).toMatchObject({ title: "Boris Godunov", url: `/post/${news.id}`, type: "POST" });
    expect((forA.payload as { body: string }).body).toContain("Fresh news");
    // Each push names its receiver's own entry: the tags differ.
    const [entryA] = await getSql()<{ id: string }[]>`select id from notifications where receiver_id = ${a.id} and notification_type = 'POST'`;
    const [entryC] = await getSql()<{ id: string }[]>`select id from notifications where receiver_id = ${c.id} and notification_type = 'POST'`;
    expect([(forA.payload as { tag: string }).tag, (forC.payload as { tag: string }).tag]).toEqual([`n-${entryA.id}`, `n-${entryC.id}`]);
  });

  it("a 410 or 404 removes the subscription; a 500 keeps it and puts the job back for a retry with backoff", async () => {
    const gone = push.device(410);
    const missing = push.device(404);
    const failing = push.device(500);
    for (const d of [gone, missing, failing]) expect((await post(a, d.body)).status).toBe(201);
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "are you there?" } });
    const { queued, outcomes } = await pushNow();
    expect(queued).toBe(5);
    expect(outcomes.sort()).toEqual(["failed", "gone", "gone", "sent", "sent"]);
    expect((await rowsOf(a.id)).map((s) => s.endpoint).sort()).toEqual([en201.endpoint, ru201.endpoint, failing.endpoint].sort());
    expect(receivedAt(failing.endpoint)).toHaveLength(1); // it did arrive decrypted; the service said 500
    await getBoss();
    const jobs = await getSql()<{ state: string; start_after: string }[]>`
      select state, start_after from pgboss.job where name = ${QUEUES.push} and state <> 'completed'`;
    expect(jobs).toHaveLength(1);
    expect(jobs[0].state).toBe("retry");
    expect(new Date(jobs[0].start_after).getTime()).toBeGreaterThan(Date.now());
  });
});

describe("the realtime sidecar's dispatcher", () => {
  it("after its drain, queues pushes for subscribed accounts without a socket there, and none for one with an open tab", async () => {
    const server = await createRealtimeServer({ port: 0 });
    try {
      const [away, present, sender] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
      const awayDevice = push.device(201);
      const presentDevice = push.device(201);
      expect((await post(away, awayDevice.body)).status).toBe(201);
      expect((await post(present, presentDevice.body)).status).toBe(201);
      const tab = await TestSocket.open(server.port, { token: present.accessToken });
      // The tab's account first: its event is before the other's, so once the other's push arrives, its own was decided.
      await sendMessage({ ctx: sender.ctx, input: { recipientId: present.id, messageText: "seen in the tab" } });
      for (;;) if ((await tab.next()).type === "NOTIFICATION") break;
      await sendMessage({ ctx: sender.ctx, input: { recipientId: away.id, messageText: "for the closed tab" } });
      while (receivedAt(awayDevice.endpoint).length === 0) {
        await drainPushQueue(getDb(), push.sender);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(receivedAt(awayDevice.endpoint).map((r) => (r.payload as { body: string }).body)).toEqual([
        en.notifications.sentence.MESSAGE.replace("{content}", "for the closed tab"),
      ]);
      expect(receivedAt(presentDevice.endpoint)).toEqual([]);
      tab.close();
    } finally {
      await server.close();
    }
  });

  it("a tab that reports itself hidden no longer holds pushes back; one that turns visible again does (a socket that never reports counts as visible)", async () => {
    const server = await createRealtimeServer({ port: 0 });
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((r) => setTimeout(r, 20));
    };
    try {
      const [hidden, away, sender] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
      const hiddenDevice = push.device(201);
      const awayDevice = push.device(201);
      expect((await post(hidden, hiddenDevice.body)).status).toBe(201);
      expect((await post(away, awayDevice.body)).status).toBe(201);
      const tab = await TestSocket.open(server.port, { token: hidden.accessToken });
      expect(server.stats()).toMatchObject({ sockets: 1, accounts: 1, visibleAccounts: 1 });
      // Hostile or unknown shapes are ignored: the socket stays open and still counts as visible.
      for (const frame of [{ type: "VISIBILITY" }, { type: "VISIBILITY", visible: "no" }, { type: "VISIBILITY", visible: 0 }, { type: "VISIBILITY", visible: null }]) tab.send(frame);
      tab.send({ type: "VISIBILITY", visible: false });
      await until(() => server.stats().visibleAccounts === 0);
      expect(server.stats()).toMatchObject({ sockets: 1, accounts: 1 });

      await sendMessage({ ctx: sender.ctx, input: { recipientId: hidden.id, messageText: "while the tab is in the background" } });
      for (;;) if ((await tab.next()).type === "NOTIFICATION") break; // the socket still gets it live
      while (receivedAt(hiddenDevice.endpoint).length === 0) {
        await drainPushQueue(getDb(), push.sender);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(receivedAt(hiddenDevice.endpoint).map((r) => (r.payload as { body: string }).body)).toEqual([
        en.notifications.sentence.MESSAGE.replace("{content}", "while the tab is in the background"),
      ]);

      // Back in front: the next message is the tab's own again. The entry is read first, so a new one is pushed if at all.
      await getSql()`update notifications set is_read = true where receiver_id = ${hidden.id}`;
      tab.send({ type: "VISIBILITY", visible: true });
      tab.send({ type: "VISIBILITY", visible: true }); // a repeat changes nothing
      await until(() => server.stats().visibleAccounts === 1);
      await sendMessage({ ctx: sender.ctx, input: { recipientId: hidden.id, messageText: "seen in the tab" } });
      for (;;) if ((await tab.next()).type === "NOTIFICATION") break;
      await sendMessage({ ctx: sender.ctx, input: { recipientId: away.id, messageText: "for the closed tab" } });
      while (receivedAt(awayDevice.endpoint).length === 0) {
        await drainPushQueue(getDb(), push.sender);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(receivedAt(hiddenDevice.endpoint)).toHaveLength(1);

      // A hidden socket that closes leaves nothing behind in the count.
      tab.send({ type: "VISIBILITY", visible: false });
      await until(() => server.stats().visibleAccounts === 0);
      await tab.close();
      await until(() => server.stats().sockets === 0);
      expect(server.stats()).toMatchObject({ accounts: 0, visibleAccounts: 0 });
    } finally {
      await server.close();
    }
  });
});
