// Issue 40, items 1–4 (docs/adr/0163): push endpoints on public addresses only, a device that never answers
// stalls nobody else, a device ends with the session that subscribed it, and a push carries the text its
// message has now. Against the push service that stands in on this machine (helpers/push-service.ts).
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as subscribe } from "@/app/api/v1/push/subscriptions/route";
import { getDb, getSql } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { sequenceEvents } from "@/lib/server/events/outbox";
import { closeRateLimitStore } from "@/lib/server/http/rate-limit";
import { getBoss, QUEUES } from "@/lib/server/jobs/boss";
import { purgeEndedSessions } from "@/lib/server/jobs/purge-expired";
import { setUserBlocked } from "@/lib/server/services/admin/users";
import { issueLink } from "@/lib/server/services/auth/links";
import { login } from "@/lib/server/services/auth/login";
import { logout } from "@/lib/server/services/auth/logout";
import { resetPasswordWithLink } from "@/lib/server/services/auth/recovery";
import { deleteMessage, editMessage } from "@/lib/server/services/dialogs/changes";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { drainPushQueue, startPushWorker } from "@/lib/server/services/push/deliver";
import { dispatchPushes } from "@/lib/server/services/push/dispatch";
import { isPublicAddress, mayBePushEndpoint } from "@/lib/server/services/push/endpoint-address";
import { PUSH_DELIVERY_TIMEOUT_MS } from "@/lib/server/services/push/send";
import en from "@/messages/en.json";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { PUSH_HOST, startPushService, type PushService } from "./helpers/push-service";

vi.stubEnv("RATE_LIMIT_PUSH_SUBSCRIBE", "100/1h");

type Account = Awaited<ReturnType<typeof signedInAccount>>;

let push: PushService;
beforeAll(async () => {
  push = await startPushService();
  await pushNow(); // the dispatcher's cursor starts at the newest event
});
// Each test starts with an empty queue: a job another test left for a retry would come due in it.
beforeEach(async () => {
  await getSql()`delete from pgboss.job where name = ${QUEUES.push} and state < 'active'`;
});
afterAll(async () => {
  await push.close();
  await closeRateLimitStore();
  vi.unstubAllEnvs();
});

const post = (token: string, body: unknown) => call(subscribe, { token, body, headers: { "accept-language": "en" } });
const bodiesAt = (endpoint: string) => push.received.filter((r) => push.origin + r.path === endpoint).map((r) => (r.payload as { body: string }).body);
const messageBody = (text: string) => en.notifications.sentence.MESSAGE.replace("{content}", text);

async function dispatchNow(): Promise<number> {
  await sequenceEvents(getDb());
  return dispatchPushes(getDb());
}
async function pushNow() {
  const queued = await dispatchNow();
  return { queued, outcomes: await drainPushQueue(getDb(), push.sender) };
}

/** The same account signed in once more: another session, its own token. */
async function anotherSession(a: Account) {
  const tokens = await login({ ctx: ctxOf(), input: { email: a.email, password: a.password } });
  const viewer = (await resolveViewer(getDb(), tokens.accessToken, env().AUTH_SECRET))!;
  return { ...tokens, viewer, ctx: ctxOf(viewer) };
}

async function subscribed(token: string, status: 201 | 500 = 201) {
  const d = push.device(status);
  const res = await post(token, d.body);
  expect(res.status).toBe(201);
  return { ...d, id: Number(res.body.id) };
}

const queuedJobs = async (subscriptionId: number) =>
  (await getSql()<{ n: number }[]>`
    select count(*)::int as n from pgboss.job
    where name = ${QUEUES.push} and state < 'active' and (data->>'subscriptionId')::bigint = ${subscriptionId}`)[0].n;
const deviceRow = async (id: number) => (await getSql()<{ id: string }[]>`select id from push_subscriptions where id = ${id}`)[0];

describe("item 1: endpoints on public addresses only", () => {
  it("refuses, at subscribe, endpoints that name this machine or its network in any spelling (422 on endpoint)", async () => {
    const a = await signedInAccount();
    const keys = push.device(201).body.keys;
    const inside = [
      "https://127.0.0.1:8443/push/x",
      "https://127.0.0.2/x",
      "https://[::1]/x",
      "https://localhost/x",
      "https://LOCALHOST./x",
      "https://push.localhost/x",
      "https://0x7f000001/x",
      "https://2130706433/x",
      "https://127.1/x",
      "https://0177.0.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/x",
      "https://172.16.5.4/x",
      "https://192.168.1.1/x",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://[::]/x",
      "https://224.0.0.1/x",
      "https://255.255.255.255/x",
      "https://[fe80::1]/x",
      "https://[fd00::1]/x",
      "https://[ff02::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:a9fe:a9fe]/x",
      "https://[64:ff9b::7f00:1]/x",
      "https://[2002:7f00:1::1]/x",
    ];
    for (const endpoint of inside) {
      const res = await post(a.accessToken, { endpoint, keys });
      expect(res.status, endpoint).toBe(422);
      expect(res.body.error.issues, endpoint).toEqual([{ path: "endpoint", message: en.pushErrors.endpointNotPublic }]);
    }
    expect((await post(a.accessToken, { endpoint: "http://push.example.com/x", keys })).status).toBe(422);
    expect(await getSql()`select 1 from push_subscriptions where account_id = ${a.id}`).toEqual([]);

    // Public literals, and a name that does not resolve yet (checked again at send time), are accepted.
    for (const endpoint of ["https://93.184.216.34/push/x", "https://[2606:4700:4700::1111]/push/x", `https://${PUSH_HOST}/push/later`]) {
      expect((await post(a.accessToken, { endpoint, keys })).status, endpoint).toBe(201);
    }
  });

  it("at subscribe, a name is refused when any address it resolves to now is not public; a resolver failure accepts it", async () => {
    const resolving = (addresses: string[]) => async () => addresses;
    expect(await mayBePushEndpoint("https://push.example.com/x", resolving(["93.184.216.34"]))).toBe(true);
    expect(await mayBePushEndpoint("https://push.example.com/x", resolving(["93.184.216.34", "10.0.0.7"]))).toBe(false);
    expect(await mayBePushEndpoint("https://push.example.com/x", resolving(["2606:4700::1", "::1"]))).toBe(false);
    expect(await mayBePushEndpoint("https://push.example.com/x", async () => Promise.reject(new Error("ENOTFOUND")))).toBe(true);
    // The test-only loopback allowance is the sender's alone: it lets loopback through, nothing else.
    expect(isPublicAddress("127.0.0.1", true)).toBe(true);
    expect(isPublicAddress("10.0.0.1", true)).toBe(false);
    expect(isPublicAddress("127.0.0.1")).toBe(false);
  });

  it("at send time, a name that now resolves inside (DNS rebinding), for any of its addresses, is refused without connecting, and the device removed", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    // The name was unknown at subscribe; now it resolves to loopback, and the sender has no test-only allowance.
    const first = await subscribed(a.accessToken);
    const { dialogId } = (await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "rebound" } })).message;
    expect(await dispatchNow()).toBe(1);
    expect(await drainPushQueue(getDb(), { resolve: async () => ["127.0.0.1"] })).toEqual(["refused"]);
    expect(await deviceRow(first.id)).toBeUndefined();

    // A public address and a private one: every address is checked (the allowance covers loopback only).
    const second = await subscribed(a.accessToken);
    await sendMessage({ ctx: b.ctx, input: { dialogId, messageText: "rebound again" } });
    expect(await dispatchNow()).toBe(1);
    expect(await drainPushQueue(getDb(), { ...push.sender, resolve: async () => ["127.0.0.1", "10.0.0.7"] })).toEqual(["refused"]);
    expect(await deviceRow(second.id)).toBeUndefined();
    expect(bodiesAt(first.endpoint)).toEqual([]);
    expect(bodiesAt(second.endpoint)).toEqual([]);
  });

  it("connects only to the address it checked (the name is resolved once, by the sender) and follows no redirect", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    const target = push.device(201);
    const redirecting = push.device(307, target.endpoint);
    expect((await post(a.accessToken, redirecting.body)).status).toBe(201);
    const plain = await subscribed(a.accessToken);
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "where to?" } });
    const resolved: string[] = [];
    const sender = { ...push.sender, resolve: async (h: string) => (resolved.push(h), push.sender.resolve!(h)) };
    expect(await dispatchNow()).toBe(2);
    expect((await drainPushQueue(getDb(), sender)).sort()).toEqual(["dropped", "sent"]);
    // PUSH_HOST is known to no resolver but the sender's: the connection used the address it checked.
    expect(resolved).toEqual([PUSH_HOST, PUSH_HOST]);
    expect(bodiesAt(plain.endpoint)).toEqual([messageBody("where to?")]);
    expect(bodiesAt(redirecting.endpoint)).toHaveLength(1);
    expect(bodiesAt(target.endpoint)).toEqual([]);
  });
});

/** An HTTPS server on PUSH_HOST's certificate that accepts connections and requests and never answers. */
async function startStallingService() {
  const sockets = new Set<Socket>();
  let open = 0;
  let maxOpen = 0;
  let connections = 0;
  const server: Server = createServer({ key: push.key, cert: push.cert }, () => {});
  server.on("secureConnection", (socket: Socket) => {
    connections++;
    open++;
    maxOpen = Math.max(maxOpen, open);
    sockets.add(socket);
    socket.on("close", () => {
      open--;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://${PUSH_HOST}:${(server.address() as AddressInfo).port}`;
  let n = 0;
  return {
    endpoint: () => `${origin}/stall/${++n}`,
    stats: () => ({ open, maxOpen, connections }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("item 2: a device that never answers stalls nobody else", () => {
  it(`gives up on a delivery after ${PUSH_DELIVERY_TIMEOUT_MS / 1000} s and backs that device off on its own: its next job waits without connecting`, async () => {
    const stall = await startStallingService();
    try {
      const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
      const keys = push.device(201).body.keys;
      const stuck = await post(a.accessToken, { endpoint: stall.endpoint(), keys });
      expect(stuck.status).toBe(201);
      const fine = await subscribed(a.accessToken);
      const { dialogId } = (await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "one" } })).message;
      expect(await dispatchNow()).toBe(2);
      const started = Date.now();
      expect((await drainPushQueue(getDb(), push.sender)).sort()).toEqual(["failed", "sent"]);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(PUSH_DELIVERY_TIMEOUT_MS - 100);
      expect(took).toBeLessThan(PUSH_DELIVERY_TIMEOUT_MS + 2_000);
      expect(stall.stats().connections).toBe(1);
      const [row] = await getSql()<{ failures: number; backed_off: boolean }[]>`
        select failures, retry_after > now() as backed_off from push_subscriptions where id = ${stuck.body.id}`;
      expect(row).toEqual({ failures: 1, backed_off: true });
      expect((await getSql()<{ failures: number }[]>`select failures from push_subscriptions where id = ${fine.id}`)[0].failures).toBe(0);

      // The next message: the healthy device gets it at once; the backed-off one fails without a connection.
      await sendMessage({ ctx: b.ctx, input: { dialogId, messageText: "two" } });
      expect(await dispatchNow()).toBe(2);
      const again = Date.now();
      expect((await drainPushQueue(getDb(), push.sender)).sort()).toEqual(["failed", "sent"]);
      expect(Date.now() - again).toBeLessThan(1_500);
      expect(stall.stats().connections).toBe(1);
      expect(bodiesAt(fine.endpoint)).toEqual([messageBody("one"), messageBody("two")]);
      await getSql()`delete from push_subscriptions where id = ${stuck.body.id}`;
    } finally {
      await stall.close();
    }
  }, 30_000);

  it("with one account's six never-answering devices and a backlog queued first, another person's push goes through promptly while those hang, at most 4 at once on their host", async () => {
    const stall = await startStallingService();
    const boss = await getBoss();
    let worker: string | undefined;
    try {
      const [a, b, c] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" }), signedInAccount()]);
      const keys = push.device(201).body.keys;
      const stuck: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post(a.accessToken, { endpoint: stall.endpoint(), keys });
        expect(res.status).toBe(201);
        stuck.push(Number(res.body.id));
      }
      const other = await subscribed(c.accessToken);
      // Three rounds for the stalling devices (18 jobs), then the other person's message, queued last.
      const { dialogId } = (await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "backlog 0" } })).message;
      expect(await dispatchNow()).toBe(6);
      for (let i = 1; i < 3; i++) {
        await sendMessage({ ctx: b.ctx, input: { dialogId, messageText: `backlog ${i}` } });
        expect(await dispatchNow()).toBe(6);
      }
      await sendMessage({ ctx: b.ctx, input: { recipientId: c.id, messageText: "for someone else" } });
      expect(await dispatchNow()).toBe(1);

      const started = Date.now();
      worker = await startPushWorker(boss, push.sender);
      while (bodiesAt(other.endpoint).length === 0) {
        expect(Date.now() - started, "the other person's push is held back").toBeLessThan(3_000);
        await new Promise((r) => setTimeout(r, 25));
      }
      const promptly = Date.now() - started;
      expect(bodiesAt(other.endpoint)).toEqual([messageBody("for someone else")]);
      // The stalled deliveries were still pending when it arrived, and never more than 4 to their host.
      expect(promptly).toBeLessThan(PUSH_DELIVERY_TIMEOUT_MS);
      expect(stall.stats().open).toBeGreaterThan(0);
      expect(stall.stats().maxOpen).toBeLessThanOrEqual(4);
      console.info(`push to another person with a stalled backlog queued first: ${promptly} ms`);
      await getSql()`delete from push_subscriptions where id = any(${stuck}::bigint[])`;
    } finally {
      if (worker) await boss.offWork(QUEUES.push, { id: worker, wait: true });
      await stall.close();
    }
  }, 30_000);
});

describe("item 3: a device ends with the session that subscribed it", () => {
  it("sign-out removes that session's devices and their queued pushes, not another session's", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    const phone = await anotherSession(a);
    const desktopDevice = await subscribed(a.accessToken);
    const phoneDevice = await subscribed(phone.accessToken);
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "after you left" } });
    expect(await dispatchNow()).toBe(2);
    expect(await queuedJobs(desktopDevice.id)).toBe(1);

    await logout({ ctx: a.ctx });
    expect(await deviceRow(desktopDevice.id)).toBeUndefined();
    expect(await queuedJobs(desktopDevice.id)).toBe(0);
    expect(await deviceRow(phoneDevice.id)).toBeDefined();
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["sent"]);
    expect(bodiesAt(desktopDevice.endpoint)).toEqual([]);
    expect(bodiesAt(phoneDevice.endpoint)).toEqual([messageBody("after you left")]);
  });

  it("a password reset (every session revoked) removes every device and its queued pushes: the new message's text reaches none", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    const phone = await anotherSession(a);
    const devices = [await subscribed(a.accessToken), await subscribed(phone.accessToken)];
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "queued before the reset" } });
    expect(await dispatchNow()).toBe(2);
    const secret = await getDb().transaction((tx) => issueLink(tx, { accountId: a.id, kind: "PASSWORD_RECOVERY" }));
    await resetPasswordWithLink({ ctx: ctxOf(), secret, input: { password: "Another-pass2!" } });
    for (const d of devices) {
      expect(await deviceRow(d.id)).toBeUndefined();
      expect(await queuedJobs(d.id)).toBe(0);
    }
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "secret after the reset" } });
    expect(await pushNow()).toEqual({ queued: 0, outcomes: [] });
    expect(JSON.stringify(push.received)).not.toContain("after the reset");
  });

  it("an admin's block removes the blocked person's devices", async () => {
    const [a, admin] = await Promise.all([signedInAccount(), signedInAccount()]);
    const device = await subscribed(a.accessToken);
    await getSql()`update accounts set role = 'ADMIN' where id = ${admin.id}`;
    const adminViewer = (await resolveViewer(getDb(), admin.accessToken, env().AUTH_SECRET))!;
    await setUserBlocked({ ctx: ctxOf(adminViewer), input: { id: a.id, body: { reason: "spam" } }, blocked: true });
    expect(await deviceRow(device.id)).toBeUndefined();
  });

  it("an expired session pushes nothing at once, and its purge removes the device (the database cascades)", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    const device = await subscribed(a.accessToken);
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "queued before the expiry" } });
    expect(await dispatchNow()).toBe(1);
    await getSql()`update sessions set expires_at = now() - interval '1 second' where id = ${a.viewer.sessionId}`;
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["skipped"]);
    await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "after the expiry" } });
    expect(await dispatchNow()).toBe(0);
    expect(await purgeEndedSessions(getDb())).toBeGreaterThanOrEqual(1);
    expect(await deviceRow(device.id)).toBeUndefined();
    expect(bodiesAt(device.endpoint)).toEqual([]);
  });

  it("an endpoint that moves to another account belongs to the new session: the old account's sign-out leaves it", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount()]);
    const d = push.device(201);
    expect((await post(a.accessToken, d.body)).status).toBe(201);
    const moved = await post(b.accessToken, d.body);
    expect(moved.status).toBe(201);
    await logout({ ctx: a.ctx });
    expect(await deviceRow(Number(moved.body.id))).toBeDefined();
    await logout({ ctx: b.ctx });
    expect(await deviceRow(Number(moved.body.id))).toBeUndefined();
  });
});

describe("item 4: a push carries the text its message has when it is sent", () => {
  it("a message deleted for everyone after it was queued is not pushed; an edited one is pushed as it reads now", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    const device = await subscribed(a.accessToken);
    const sent = await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "oops, wrong chat" } });
    expect(await dispatchNow()).toBe(1);
    await deleteMessage({ ctx: b.ctx, input: { id: sent.message.dialogId, messageId: sent.message.id, forEveryone: true } });
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["skipped"]);

    const typo = await sendMessage({ ctx: b.ctx, input: { dialogId: sent.message.dialogId, messageText: "see you at 7" } });
    expect(await dispatchNow()).toBe(1);
    await editMessage({ ctx: b.ctx, input: { id: typo.message.dialogId, messageId: typo.message.id, messageText: "see you at 8" } });
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["sent"]);
    expect(bodiesAt(device.endpoint)).toEqual([messageBody("see you at 8")]);
    expect(JSON.stringify(push.received)).not.toContain("wrong chat");
    expect(JSON.stringify(push.received)).not.toContain("at 7");
  });

  it("a retry never carries the text of a message deleted for everyone after the first attempt", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Boris", lastName: "Godunov" })]);
    const failing = await subscribed(a.accessToken, 500);
    const sent = await sendMessage({ ctx: b.ctx, input: { recipientId: a.id, messageText: "taken back" } });
    expect(await dispatchNow()).toBe(1);
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["failed"]);
    expect(bodiesAt(failing.endpoint)).toEqual([messageBody("taken back")]); // decrypted, then answered 500
    await deleteMessage({ ctx: b.ctx, input: { id: sent.message.dialogId, messageId: sent.message.id, forEveryone: true } });
    // The retry is due now, and the device's own backoff is over.
    await getSql()`update pgboss.job set start_after = now() where name = ${QUEUES.push} and state = 'retry' and (data->>'subscriptionId')::bigint = ${failing.id}`;
    await getSql()`update push_subscriptions set retry_after = null where id = ${failing.id}`;
    expect(await drainPushQueue(getDb(), push.sender)).toEqual(["skipped"]);
    expect(bodiesAt(failing.endpoint)).toHaveLength(1);
  });
});
