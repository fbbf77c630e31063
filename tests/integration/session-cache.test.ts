// The session cache and its revocation guarantee (docs/adr/0135), with two app instances on one database
// (helpers/two-instances.ts: A this process's own, whose cache the routes use; B a second, independent one).
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { databaseUrl, getDb, getSql } from "@/db/client";
import { PUT as blockUserRoute } from "@/app/api/v1/admin/users/[id]/block/route";
import { PUT as roleRoute } from "@/app/api/v1/admin/users/[id]/role/route";
import { GET as accountMeRoute, DELETE as deleteMeRoute, PUT as updateMeRoute } from "@/app/api/v1/account/me/route";
import { POST as changePasswordLinkRoute } from "@/app/api/v1/auth/change-password-link/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { PUT as passwordRoute } from "@/app/api/v1/auth/password/route";
import { SessionCache } from "@/lib/server/auth/session-cache";
import { resolveViewer, type Viewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { signedInAccount } from "./helpers/factories";
import { twoInstances } from "./helpers/two-instances";
import { call } from "./helpers/http";
import { lastMail, secretOf, uniqueIp } from "./helpers/auth";

const instances = twoInstances("cache");

const secret = () => env().AUTH_SECRET;
const onA = (token: string) => resolveViewer(getDb(), token, secret(), instances.cacheA);
const onB = (token: string) => resolveViewer(instances.dbB, token, secret(), instances.cacheB);

/** Resolves on both instances twice: the second read of each is a cache hit. */
async function cachedOnBoth(token: string): Promise<Viewer> {
  for (const check of [onA, onB]) {
    expect(await check(token)).not.toBeNull();
    expect(await check(token)).not.toBeNull();
  }
  return (await onB(token))!;
}

/** Milliseconds until B's answer for `token` satisfies `done` (polled every 5 ms; fails past 1 s). */
async function untilOnB(token: string, done: (v: Viewer | null) => boolean): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (done(await onB(token))) return performance.now() - started;
    if (performance.now() - started > 1_000) throw new Error("B still answers the old state after 1 s");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Ends a session in the database with the triggers off: a notification that never arrives. */
async function revokeSilently(sessionId: string) {
  await getSql().begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`update sessions set revoked_at = now() where id = ${sessionId}`;
  });
}

async function waitFor(condition: () => boolean, what: string) {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > 5_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function adminAccount() {
  const admin = await signedInAccount();
  await getDb().execute(sql`update accounts set role = 'ADMIN' where id = ${admin.id}`);
  return admin;
}

describe("session cache: a hit makes no round trip", () => {
  it("serves a cached session without reading it (shown by a revocation it was not told of), and forgets it when told", async () => {
    const me = await signedInAccount();
    await cachedOnBoth(me.accessToken);
    await revokeSilently(me.viewer.sessionId);
    // Neither instance read the session again: both still honour it (for at most the entry's 60 s).
    expect(await onA(me.accessToken)).not.toBeNull();
    expect(await onB(me.accessToken)).not.toBeNull();
    // A route behind withAuth on A uses the same cache, and account/me reads only the account on a hit.
    const res = await call(accountMeRoute, { token: me.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(me.id);
    instances.cacheA.forgetSession(me.viewer.sessionId);
    instances.cacheB.heard(`s:${me.viewer.sessionId}`);
    expect(await onA(me.accessToken)).toBeNull();
    expect(await onB(me.accessToken)).toBeNull();
  });

  it("is bounded: the least recently used entry goes first", async () => {
    // A long ttl here, so that a slow moment of the host cannot expire an entry mid-test.
    const small = new SessionCache({
      url: databaseUrl(),
      maxEntries: 2,
      ttlMs: 30_000,
      trustMs: 30_000,
      name: "krug-test-cache-small",
    });
    await small.start();
    try {
      const people = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount()]);
      const [x, y, z] = people.map((p) => p.accessToken);
      const check = async (token: string, sessionId: string, id: number) => {
        // Read until kept: a notification heard during a read (these accounts' own sign-ups) voids its store.
        for (let reads = 0; reads < 20 && !small.get(sessionId, id); reads++) await resolveViewer(getDb(), token, secret(), small);
      };
      const [px, py, pz] = people.map((p) => [p.viewer.sessionId, p.id] as const);
      await check(x, ...px);
      await check(y, ...py);
      expect(small.get(people[0].viewer.sessionId, people[0].id)).toBeDefined(); // x is now the most recent
      await check(z, ...pz);
      expect(small.size).toBe(2);
      expect(small.get(people[1].viewer.sessionId, people[1].id)).toBeUndefined(); // y went
      expect(small.get(people[0].viewer.sessionId, people[0].id)).toBeDefined();
      // An entry never answers for another account than its token's.
      expect(small.get(people[0].viewer.sessionId, people[1].id)).toBeUndefined();
    } finally {
      await small.stop();
    }
  });

  it("keeps an entry at most its ttl", async () => {
    // Ages run on a hand-stepped clock, and the listener is trusted for 30 s: a loaded host's pauses between
    // two lines must not decide what this test sees.
    let now = 0;
    const brief = new SessionCache({
      url: databaseUrl(),
      maxEntries: 2,
      ttlMs: 150,
      trustMs: 30_000,
      name: "krug-test-cache-brief",
      clock: () => now,
    });
    await brief.start();
    try {
      const person = await signedInAccount();
      // An entry is stored only when nothing was forgotten while it was read, and the notifications of this
      // account's own sign-up can arrive during that read: read until it is kept, as the next request would.
      for (let reads = 0; reads < 20 && !brief.get(person.viewer.sessionId, person.id); reads++) {
        await resolveViewer(getDb(), person.accessToken, secret(), brief);
      }
      expect(brief.get(person.viewer.sessionId, person.id)).toBeDefined();
      now += 150;
      expect(brief.get(person.viewer.sessionId, person.id)).toBeDefined(); // 150 ms old: still kept
      now += 1;
      expect(brief.get(person.viewer.sessionId, person.id)).toBeUndefined();
    } finally {
      await brief.stop();
    }
  });
});

describe("session cache: revocation on two instances", () => {
  it("sign out on A: A refuses the token at once, B within 1 s", async () => {
    const me = await signedInAccount();
    await cachedOnBoth(me.accessToken);
    const out = await call(logoutRoute, { method: "POST", token: me.accessToken });
    expect(out.status).toBeLessThan(300);
    expect(await onA(me.accessToken)).toBeNull();
    const ms = await untilOnB(me.accessToken, (v) => v === null);
    expect(ms).toBeLessThan(1_000);
  });

  it("B's listening connection killed: B's cache is off, so a sign-out on A B never hears of is refused at once; back on after a resync", async () => {
    const me = await signedInAccount();
    const other = await signedInAccount();
    await cachedOnBoth(me.accessToken);
    await cachedOnBoth(other.accessToken);
    const pid = instances.cacheB.listenerPid!;
    expect(pid).toBeGreaterThan(0);
    const [{ killed }] = await getSql()<{ killed: boolean }[]>`select pg_terminate_backend(${pid}) as killed`;
    expect(killed).toBe(true);
    await waitFor(() => !instances.cacheB.on, "B's cache to switch off");
    // The notification of this sign-out is sent while B does not listen: it is lost to B.
    expect((await call(logoutRoute, { method: "POST", token: me.accessToken })).status).toBeLessThan(300);
    expect(await onB(me.accessToken)).toBeNull();
    // And a revocation no trigger announces at all is refused too, while off and after the resync.
    await revokeSilently(other.viewer.sessionId);
    expect(await onB(other.accessToken)).toBeNull();
    await waitFor(() => instances.cacheB.on && instances.cacheB.listenerPid !== pid, "B's listener to come back");
    expect(instances.cacheB.listenerPid).not.toBe(pid);
    expect(await onB(other.accessToken)).toBeNull();
    expect(await onB(me.accessToken)).toBeNull();
    // Back on: a live session is cached again and its sign-out reaches B through the new connection.
    const third = await signedInAccount();
    await cachedOnBoth(third.accessToken);
    expect(instances.cacheB.size).toBeGreaterThan(0);
    expect((await call(logoutRoute, { method: "POST", token: third.accessToken })).status).toBeLessThan(300);
    expect(await untilOnB(third.accessToken, (v) => v === null)).toBeLessThan(1_000);
  });

  it("a password change signs every session out: at once on A, within 1 s on B", async () => {
    const me = await signedInAccount();
    const elsewhere = await call(loginRoute, { body: { email: me.email, password: me.password }, headers: { "x-krug-client-address": uniqueIp() } });
    const otherToken = elsewhere.body.accessToken as string;
    await cachedOnBoth(otherToken);
    await cachedOnBoth(me.accessToken);
    expect((await call(changePasswordLinkRoute, { method: "POST", token: me.accessToken })).status).toBe(200);
    const secretOfLink = secretOf((await lastMail(me.email))!.links[0]);
    const changed = await call(passwordRoute, { method: "PUT", token: me.accessToken, body: { secret: secretOfLink, password1: "Shifted-pass4%", password2: "Shifted-pass4%" } });
    expect(changed.status).toBe(200);
    expect(await onA(otherToken)).toBeNull();
    expect(await onA(me.accessToken)).toBeNull();
    expect(await untilOnB(otherToken, (v) => v === null)).toBeLessThan(1_000);
    expect(await untilOnB(me.accessToken, (v) => v === null)).toBeLessThan(1_000);
  });

  it("an administrative block: at once on A, within 1 s on B", async () => {
    const admin = await adminAccount();
    const me = await signedInAccount();
    await cachedOnBoth(me.accessToken);
    const res = await call(blockUserRoute, { method: "PUT", token: admin.accessToken, params: { id: String(me.id) }, body: { reason: "spam" } });
    expect(res.status).toBe(200);
    expect(await onA(me.accessToken)).toBeNull();
    expect(await untilOnB(me.accessToken, (v) => v === null)).toBeLessThan(1_000);
  });

  it("a role change: the new role at once on A, within 1 s on B (both ways)", async () => {
    const admin = await adminAccount();
    const me = await signedInAccount();
    expect((await cachedOnBoth(me.accessToken)).role).toBe("USER");
    const up = await call(roleRoute, { method: "PUT", token: admin.accessToken, params: { id: String(me.id) }, body: { role: "MODERATOR" } });
    expect(up.status).toBe(200);
    expect((await onA(me.accessToken))?.role).toBe("MODERATOR");
    expect(await untilOnB(me.accessToken, (v) => v?.role === "MODERATOR")).toBeLessThan(1_000);
    await cachedOnBoth(me.accessToken);
    const down = await call(roleRoute, { method: "PUT", token: admin.accessToken, params: { id: String(me.id) }, body: { role: "USER" } });
    expect(down.status).toBe(200);
    expect((await onA(me.accessToken))?.role).toBe("USER");
    expect(await untilOnB(me.accessToken, (v) => v?.role === "USER")).toBeLessThan(1_000);
  });

  it("deleting and restoring the account: the deletion state at once on A, within 1 s on B", async () => {
    const me = await signedInAccount();
    expect((await cachedOnBoth(me.accessToken)).isDeleted).toBe(false);
    expect((await call(deleteMeRoute, { method: "DELETE", token: me.accessToken })).status).toBe(200);
    expect((await onA(me.accessToken))?.isDeleted).toBe(true);
    expect(await untilOnB(me.accessToken, (v) => v?.isDeleted === true)).toBeLessThan(1_000);
    await cachedOnBoth(me.accessToken);
    const restored = await call(updateMeRoute, { method: "PUT", token: me.accessToken, body: { isDeleted: false } });
    expect(restored.status).toBe(200);
    expect((await onA(me.accessToken))?.isDeleted).toBe(false);
    expect(await untilOnB(me.accessToken, (v) => v?.isDeleted === false)).toBeLessThan(1_000);
  });

  it("a change rolled back announces nothing and leaves the session cached", async () => {
    const me = await signedInAccount();
    await cachedOnBoth(me.accessToken);
    await expect(
      getDb().transaction(async (tx) => {
        await tx.execute(sql`update sessions set revoked_at = now() where id = ${me.viewer.sessionId}`);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await new Promise((r) => setTimeout(r, 50));
    expect(await onB(me.accessToken)).not.toBeNull();
    expect(await onA(me.accessToken)).not.toBeNull();
  });
});
