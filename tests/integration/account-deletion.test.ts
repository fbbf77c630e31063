import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { GET as accountRoute } from "@/app/api/v1/account/[id]/route";
import { DELETE as deleteMe, GET as getMe, PUT as putMe } from "@/app/api/v1/account/me/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { getDb, getSql } from "@/db/client";
import { env } from "@/lib/server/env";
import { purgeExpiredCaptchas, purgeExpiredOneTimeLinks } from "@/lib/server/jobs/purge-expired";
import { QUEUES } from "@/lib/server/jobs/boss";
import { JOBS, startJobs, stopJobs } from "@/lib/server/jobs/start-jobs";
import { anonymiseExpiredAccounts, ANONYMISED_NAME } from "@/lib/server/services/accounts/anonymise";
import { updatePrivacySettings } from "@/lib/server/services/privacy/settings";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { storedPathOf } from "@/lib/validation/storage";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

const DAY = 24 * 3600_000;
const del = (token: string) => call(deleteMe, { method: "DELETE", token });
const restore = (token: string, extra: Record<string, unknown> = {}) =>
  call(putMe, { method: "PUT", token, body: { isDeleted: false, ...extra } });

/** Moves an account's deletion `days` into the past. */
async function deletedDaysAgo(id: number, days: number) {
  await getSql()`update accounts set deletion_timestamp = now() - make_interval(secs => ${days * 86400}) where id = ${id}`;
}

describe("DELETE account/me and restoring", () => {
  it("flags the account deleted with a restore window and keeps the first deletion time", async () => {
    const a = await signedInAccount();
    const res = await del(a.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.isDeleted).toBe(true);
    const deletedAt = Date.parse(res.body.deletionTimestamp);
    expect(deletedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(env().DELETION_RESTORE_DAYS).toBe(10);
    expect(Date.parse(res.body.restoreUntil) - deletedAt).toBe(10 * DAY);
    // Still signed in: the deleted-account screen reads the account to offer restoring it.
    const again = await del(a.accessToken);
    expect(again.body.deletionTimestamp).toBe(res.body.deletionTimestamp);
    expect((await call(getMe, { token: a.accessToken })).body.isDeleted).toBe(true);
  });

  it("hides a deleted account from others (404) and from search", async () => {
    const a = await signedInAccount({ firstName: "Zinaida", lastName: "Hidden" });
    const b = await signedInAccount();
    await del(a.accessToken);
    expect((await call(accountRoute, { token: b.accessToken, params: { id: String(a.id) } })).status).toBe(404);
    const found = await call(searchRoute, { token: b.accessToken, path: "/api/v1/account/search?firstName=zinaida" });
    expect(found.body.totalElements).toBe(0);
  });

  it("a deleted account can do nothing but restore itself", async () => {
    const a = await signedInAccount();
    await del(a.accessToken);
    const edit = await call(putMe, { method: "PUT", token: a.accessToken, body: { city: "Москва" } });
    expect(edit.status).toBe(403);
    expect((await call(searchRoute, { token: a.accessToken, path: "/api/v1/account/search" })).status).toBe(403);
  });

  it("restores within the window (with other edits in the same request)", async () => {
    const a = await signedInAccount();
    await del(a.accessToken);
    await deletedDaysAgo(a.id, 9.9);
    const res = await restore(a.accessToken, { city: "Самара" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isDeleted: false, deletionTimestamp: null, restoreUntil: null, city: "Самара" });
    const b = await signedInAccount();
    expect((await call(accountRoute, { token: b.accessToken, params: { id: String(a.id) } })).status).toBe(200);
  });

  it("refuses to restore after the window, changing nothing", async () => {
    const a = await signedInAccount();
    await del(a.accessToken);
    await deletedDaysAgo(a.id, 10.01);
    const [before] = await getSql()`select * from accounts where id = ${a.id}`;
    const res = await restore(a.accessToken, { city: "Самара" });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("Срок восстановления аккаунта истёк");
    const [after] = await getSql()`select * from accounts where id = ${a.id}`;
    expect(after).toEqual(before);
  });
});

describe("anonymiseExpiredAccounts (the hourly sweep)", () => {
  it("erases accounts whose window has passed, and only those", async () => {
    const expired = await signedInAccount({ firstName: "Gleb", lastName: "Forgotten" });
    const recent = await signedInAccount({ firstName: "Vera", lastName: "Recent" });
    const alive = await signedInAccount({ firstName: "Oleg", lastName: "Alive" });
    await call(putMe, {
      method: "PUT",
      token: expired.accessToken,
      body: { phone: "+79990001122", about: "secret bio", birthDate: "1990-01-01", city: "Тула", country: "Россия", emojiStatus: "sad" },
    });
    await getSql()`insert into one_time_links (token_hash, kind, account_id, expires_at)
      values (${"h-" + expired.id}, 'PASSWORD_CHANGE', ${expired.id}, now() + interval '1 hour')`;
    // Photo and cover files in the store, at public URLs.
    const photoKey = `${randomBytes(16).toString("hex")}.webp`;
    const coverKey = `${randomBytes(16).toString("hex")}.webp`;
    for (const key of [photoKey, coverKey]) await getBlobStore().put(key, new Uint8Array([1, 2, 3]), "image/webp");
    await getSql()`update accounts set photo = ${storedPathOf(photoKey)}, profile_cover = ${storedPathOf(coverKey)} where id = ${expired.id}`;
    // In the fediverse with a short name and keys (issue 43): all of it goes, and the name is free again.
    await updatePrivacySettings({ ctx: expired.ctx, input: { fediverse: true, fediverseName: `gone_${expired.id}` } });
    await del(expired.accessToken);
    await del(recent.accessToken);
    await deletedDaysAgo(expired.id, 10.5);
    await deletedDaysAgo(recent.id, 3);

    // Other tests of this file leave expired accounts too: count at least ours.
    expect(await anonymiseExpiredAccounts(getDb(), new Date())).toBeGreaterThanOrEqual(1);

    const [row] = await getSql()`select * from accounts where id = ${expired.id}`;
    expect(row).toMatchObject({ fediverse: false, fediverse_name: null });
    expect(await getSql()`select 1 from account_keys where account_id = ${expired.id}`).toHaveLength(0);
    expect(row).toMatchObject({
      first_name: ANONYMISED_NAME,
      last_name: ANONYMISED_NAME,
      photo: null,
      profile_cover: null,
      about: null,
      phone: null,
      birth_date: null,
      city: null,
      country: null,
      emoji_status: null,
      is_deleted: true,
      deletion_timestamp: null,
    });
    expect(row.email).toMatch(/^deleted-\d+-[a-f0-9]{12}@deleted\.invalid$/);
    expect(row.email).not.toContain(expired.email.split("@")[0]);
    expect(row.password_hash).toMatch(/^!anonymised-/);
    const sessions = await getSql()`select revoked_at from sessions where account_id = ${expired.id}`;
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    expect(await getSql()`select 1 from one_time_links where account_id = ${expired.id}`).toHaveLength(0);
    // The files are gone from the store in the same sweep.
    expect(await getBlobStore().exists(photoKey)).toBe(false);
    expect(await getBlobStore().exists(coverKey)).toBe(false);
    // Their deletion jobs are done: nothing is left for the worker.
    const left = await getSql()`select state from pgboss.job where name = ${QUEUES.blobs} and data->>'key' in (${photoKey}, ${coverKey})`;
    expect(left.map((j) => j.state)).toEqual(["completed", "completed"]);

    // Signed out everywhere, the password opens nothing, and the address is free again.
    expect((await call(getMe, { token: expired.accessToken })).status).toBe(401);
    expect((await call(loginRoute, { body: { email: expired.email, password: expired.password } })).status).toBe(401);
    const reused = await createTestAccount({ email: expired.email });
    expect(reused.id).not.toBe(expired.id);

    // The others are untouched.
    const [r] = await getSql()`select first_name, deletion_timestamp from accounts where id = ${recent.id}`;
    expect(r.first_name).toBe("Vera");
    expect(r.deletion_timestamp).not.toBeNull();
    expect((await call(getMe, { token: alive.accessToken })).body.firstName).toBe("Oleg");
    // Done once: the next sweep finds nothing, and the anonymised account cannot be restored.
    expect(await anonymiseExpiredAccounts(getDb(), new Date())).toBe(0);
  });

  it("a crash between the sweep's commit and the file deletion leaves a job that deletes them later", async () => {
    const gone = await signedInAccount({ firstName: "Crash", lastName: "Between" });
    const photoKey = `${randomBytes(16).toString("hex")}.webp`;
    await getBlobStore().put(photoKey, new Uint8Array([1, 2, 3]), "image/webp");
    await getSql()`update accounts set photo = ${storedPathOf(photoKey)} where id = ${gone.id}`;
    await del(gone.accessToken);
    await deletedDaysAgo(gone.id, 11);
    // The store is unreachable after the commit (as if the process died there): the file stays for now.
    const store = getBlobStore();
    const failing = vi.spyOn(store, "delete").mockRejectedValue(new Error("store unreachable"));
    try {
      expect(await anonymiseExpiredAccounts(getDb(), new Date())).toBeGreaterThanOrEqual(1);
    } finally {
      failing.mockRestore();
    }
    expect((await getSql()`select photo from accounts where id = ${gone.id}`)[0].photo).toBeNull();
    expect(await store.exists(photoKey)).toBe(true);
    const [job] = await getSql()`select state from pgboss.job where name = ${QUEUES.blobs} and data->>'key' = ${photoKey}`;
    expect(job.state).toBe("created");
    // The next process's worker finishes it.
    await startJobs();
    try {
      await expect.poll(() => store.exists(photoKey), { timeout: 60_000, interval: 500 }).toBe(false);
    } finally {
      await stopJobs();
    }
  }, 90_000);

  it("judges the window by the `now` it is given", async () => {
    const a = await signedInAccount({ firstName: "Timur" });
    await del(a.accessToken);
    const nameOf = async () => (await getSql()`select first_name from accounts where id = ${a.id}`)[0].first_name;
    // (Accounts other tests of this file deleted may be swept along: only this one is judged.)
    await anonymiseExpiredAccounts(getDb(), new Date(Date.now() + 9 * DAY));
    expect(await nameOf()).toBe("Timur");
    expect(await anonymiseExpiredAccounts(getDb(), new Date(Date.now() + 10 * DAY + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await nameOf()).toBe(ANONYMISED_NAME);
  });

  it("works through more accounts than one batch", async () => {
    await anonymiseExpiredAccounts(getDb(), new Date()); // leftovers of earlier tests
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createTestAccount()).id);
    await getSql()`update accounts set is_deleted = true, deletion_timestamp = now() - interval '30 days' where id = any(${ids})`;
    // Plus 120 more made in one statement, so the 100-row batches have to loop.
    await getSql()`insert into accounts (email, password_hash, first_name, last_name, is_deleted, deletion_timestamp)
      select 'bulk-' || g || '-' || md5(random()::text) || '@example.com', 'x', 'Bulk', 'User', true, now() - interval '20 days'
      from generate_series(1, 120) g`;
    expect(await anonymiseExpiredAccounts(getDb(), new Date())).toBe(123);
    const [left] = await getSql()`select count(*)::int as n from accounts where is_deleted and deletion_timestamp is not null
      and deletion_timestamp < now() - interval '10 days'`;
    expect(left.n).toBe(0);
  });
});

describe("purge jobs and their schedule", () => {
  it("purges expired captchas and one-time links only", async () => {
    const a = await createTestAccount();
    await getSql()`insert into captchas (secret_hash, code_hash, expires_at) values
      ('old', 'c', now() - interval '1 minute'), ('fresh', 'c', now() + interval '5 minutes')`;
    await getSql()`insert into one_time_links (token_hash, kind, account_id, expires_at) values
      ('old-link', 'PASSWORD_RECOVERY', ${a.id}, now() - interval '1 minute'),
      ('fresh-link', 'PASSWORD_RECOVERY', ${a.id}, now() + interval '5 minutes')`;
    expect(await purgeExpiredCaptchas(getDb(), new Date())).toBeGreaterThanOrEqual(1);
    expect(await purgeExpiredOneTimeLinks(getDb(), new Date())).toBeGreaterThanOrEqual(1);
    expect((await getSql()`select secret_hash from captchas`).map((r) => r.secret_hash)).toContain("fresh");
    expect((await getSql()`select secret_hash from captchas where secret_hash = 'old'`)).toHaveLength(0);
    const links = (await getSql()`select token_hash from one_time_links where account_id = ${a.id}`).map((r) => r.token_hash);
    expect(links).toEqual(["fresh-link"]);
  });

  it("pg-boss schedules the sweep and the purges hourly, due posts and the home-timeline sweep each minute, digests every five minutes, birthdays and ended blocks every ten minutes, the backup daily, and starting twice is harmless", async () => {
    const boss = await startJobs();
    expect(await startJobs()).toBe(boss);
    const schedules = await boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual(JOBS.map((j) => [j.name, j.cron]).sort());
    const every: Record<string, RegExp> = { "publish-due-posts": /^\* \* \* \* \*$/, "home-timeline-sweep": /^\* \* \* \* \*$/, "notification-digests": /^\*\/5 \* \* \* \*$/, "birthday-notifications": /^\*\/10 \* \* \* \*$/, "lift-ended-blocks": /^\*\/10 \* \* \* \*$/, backup: /^30 3 \* \* \*$/ };
    for (const s of schedules) expect(s.cron, s.name).toMatch(every[s.name] ?? /^\d+ \* \* \* \*$/);
    await stopJobs();
    // A later start (another instance, a restart) finds the queues and schedules in place.
    const again = await startJobs();
    expect((await again.getSchedules()).length).toBe(JOBS.length);
    await stopJobs();
  });
});
