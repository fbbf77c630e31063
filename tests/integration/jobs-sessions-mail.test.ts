import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb, getSql } from "@/db/client";
import { POST as recoveryRoute } from "@/app/api/v1/auth/password/recovery/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { getBoss, QUEUES, stopBoss } from "@/lib/server/jobs/boss";
import { purgeEndedSessions } from "@/lib/server/jobs/purge-expired";
import { startJobs, stopJobs } from "@/lib/server/jobs/start-jobs";
import { env } from "@/lib/server/env";
import { mailsTo, outboxDir } from "@/lib/server/mail/mailbox";
import { drainMailQueue, queueMail } from "@/lib/server/mail/queue";
import { hashToken } from "@/lib/server/auth/tokens";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { uniqueEmail, uniqueIp } from "./helpers/auth";

const refresh = (refreshToken: string) => call(refreshRoute, { body: { refreshToken } });

async function sessionRows(accountId: number) {
  return getSql()`select s.id, s.revoked_at, (select count(*)::int from refresh_tokens r where r.session_id = s.id) as tokens
    from sessions s where s.account_id = ${accountId} order by s.created_at`;
}

describe("purge of ended sessions (issue 7 item 15)", () => {
  it("deletes expired sessions and ones revoked over a day ago with their tokens; live ones keep their spent tokens", async () => {
    const live = await signedInAccount();
    const expired = await signedInAccount({ email: live.email.replace("@", "+x@") });
    const oldRevoked = await signedInAccount({ email: uniqueEmail("oldrev") });
    const newRevoked = await signedInAccount({ email: uniqueEmail("newrev") });

    // The live session rotates twice: its first two tokens are spent and must stay (reuse detection).
    const r1 = await refresh(live.refreshToken);
    expect(r1.status).toBe(200);
    const r2 = await refresh(r1.body.refreshToken);
    expect(r2.status).toBe(200);
    await refresh(expired.refreshToken);

    await getSql()`update sessions set expires_at = now() - interval '1 minute' where account_id = ${expired.id}`;
    await getSql()`update sessions set revoked_at = now() - interval '25 hours' where account_id = ${oldRevoked.id}`;
    await getSql()`update sessions set revoked_at = now() - interval '1 hour' where account_id = ${newRevoked.id}`;
    const allBefore = (await getSql()`select count(*)::int as n from refresh_tokens`)[0].n;

    expect(await purgeEndedSessions(getDb(), new Date())).toBe(2);
    expect(await sessionRows(expired.id)).toHaveLength(0);
    expect(await sessionRows(oldRevoked.id)).toHaveLength(0);
    expect((await sessionRows(newRevoked.id)).map((s) => s.tokens)).toEqual([1]);
    expect((await sessionRows(live.id)).map((s) => s.tokens)).toEqual([3]);
    // Expired had 2 tokens (one refresh), the old revoked one 1: nothing else went.
    expect((await getSql()`select count(*)::int as n from refresh_tokens`)[0].n).toBe(allBefore - 3);
    const orphans = await getSql()`select 1 from refresh_tokens r where not exists (select 1 from sessions s where s.id = r.session_id)`;
    expect(orphans).toHaveLength(0);

    // A second run finds nothing; the live session still works and still notices reuse of a spent token.
    expect(await purgeEndedSessions(getDb(), new Date())).toBe(0);
    await getSql()`update refresh_tokens set spent_at = now() - interval '5 minutes' where token_hash = ${hashToken(live.refreshToken)}`;
    expect((await refresh(live.refreshToken)).status).toBe(401);
    const [session] = await sessionRows(live.id);
    expect(session.revoked_at).not.toBeNull();
  });

  it("purges in batches past the batch size and reads the ended sessions through their indexes", async () => {
    const a = await createTestAccount();
    await getSql()`insert into sessions (account_id, expires_at, revoked_at)
      select ${a.id}, now() - interval '1 day', null from generate_series(1, 5200)`;
    await getSql()`insert into sessions (account_id, expires_at) select ${a.id}, now() + interval '10 days' from generate_series(1, 20)`;
    expect(await purgeEndedSessions(getDb(), new Date())).toBe(5200);
    expect((await getSql()`select count(*)::int as n from sessions where account_id = ${a.id}`)[0].n).toBe(20);
    await getSql()`analyze sessions`;
    const plan = await getSql().begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx`explain select id from sessions where expires_at < now() or revoked_at < now() - interval '1 day' limit 5000`;
    });
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("sessions_expires_idx");
    expect(text).toContain("sessions_revoked_idx");
  });
});

describe("mails through the pg-boss queue (issue 7 item 15)", () => {
  const outbox = () => outboxDir(env().DATA_DIR);

  it("a recovery mail asked for before a restart is sent after it", async () => {
    const account = await createTestAccount({ email: uniqueEmail("restart") });
    const res = await call(recoveryRoute, { body: { email: account.email }, headers: { "x-krug-client-address": uniqueIp() } });
    expect(res.status).toBe(200);
    // The process "dies": nothing of this process sends it, but the job is in the database.
    await stopBoss();
    expect(await mailsTo(account.email, outbox())).toHaveLength(0);
    const [queued] = await getSql()`select data from pgboss.job where name = ${QUEUES.mail} and state = 'created'`;
    expect(queued).toBeDefined();
    // The job is sealed: the one-time link is not readable from the queue table.
    expect(JSON.stringify(queued.data)).not.toContain("change-password");
    expect(JSON.stringify(queued.data)).not.toContain(account.email);

    // A new process starts its workers and the mail goes out.
    await startJobs();
    try {
      await expect.poll(async () => (await mailsTo(account.email, outbox())).length, { timeout: 20_000 }).toBe(1);
      const [mail] = await mailsTo(account.email, outbox());
      expect(mail.links[0]).toMatch(/\/change-password\//);
      await expect
        .poll(async () => (await getSql()`select state from pgboss.job where name = ${QUEUES.mail}`).map((r) => r.state), { timeout: 10_000 })
        .toEqual(["completed"]);
    } finally {
      await stopJobs();
    }
  });

  it("a mail is queued only when its transaction commits", async () => {
    const to = uniqueEmail("rollback");
    await getBoss();
    const before = (await getSql()`select count(*)::int as n from pgboss.job where name = ${QUEUES.mail}`)[0].n;
    await expect(
      getDb().transaction(async (tx) => {
        await queueMail(tx, { to, subject: "s", text: "t", html: "<p>t</p>" });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await getSql()`select count(*)::int as n from pgboss.job where name = ${QUEUES.mail}`)[0].n).toBe(before);
    await getDb().transaction((tx) => queueMail(tx, { to, subject: "s", text: "t", html: "<p>t</p>" }));
    expect((await getSql()`select count(*)::int as n from pgboss.job where name = ${QUEUES.mail}`)[0].n).toBe(before + 1);
    expect(await drainMailQueue()).toBe(1);
    expect(await mailsTo(to, outbox())).toHaveLength(1);
  });

  it("a mail that cannot be delivered is retried, not dropped", async () => {
    const account = await createTestAccount({ email: uniqueEmail("retry") });
    const boss = await getBoss();
    // The outbox cannot be written (a file stands where its directory should be): delivery fails.
    const dir = outbox();
    await rm(`${dir}.away`, { recursive: true, force: true });
    if (existsSync(dir)) await rename(dir, `${dir}.away`);
    await mkdir(path.dirname(dir), { recursive: true });
    await writeFile(dir, "not a directory");
    try {
      expect((await call(recoveryRoute, { body: { email: account.email }, headers: { "x-krug-client-address": uniqueIp() } })).status).toBe(200);
      await expect(drainMailQueue()).rejects.toThrow();
      const jobs = await boss.findJobs(QUEUES.mail, { queued: true });
      expect(jobs.map((j) => j.state)).toEqual(["retry"]);
    } finally {
      await rm(dir, { force: true });
      if (existsSync(`${dir}.away`)) await rename(`${dir}.away`, dir);
    }
    // Once the outbox can be written again, the retry delivers it.
    await getSql()`update pgboss.job set start_after = now() where name = ${QUEUES.mail} and state = 'retry'`;
    expect(await drainMailQueue()).toBe(1);
    expect(await mailsTo(account.email, outbox())).toHaveLength(1);
  });
});
