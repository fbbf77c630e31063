// Issue 30 §1 (docs/adr/0141): the daily backup job — a run recorded for the admin page, a failure mailed to
// every administrator, and the retention (7 daily, 4 weekly by default) of backups, WAL and pooled uploads.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { LAYOUT } from "@/lib/server/backup/embedded";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { s3Destination, uploadStaged } from "@/lib/server/backup/remote";
import { applyRetention, backupsToKeep, pruneLocalWal, remoteRetention, runScheduledBackup, segmentOfLsn } from "@/lib/server/backup/schedule";
import { getHealthOverview } from "@/lib/server/services/admin/health";
import { createTestAccount, ctxOf, signedInAccount } from "./helpers/factories";

const root = mkdtempSync("/tmp/krug-backup-schedule-");
const target = path.join(root, "daily");
process.env.BACKUP_TARGET = target;
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the daily backup job", () => {
  it("records a failed run, mails every administrator, then records a good one the admin page shows", async () => {
    const signedIn = await signedInAccount();
    const other = await createTestAccount({ language: "en" });
    await createTestAccount();
    await getDb().execute(sql`update accounts set role = 'ADMIN' where id in (${signedIn.id}, ${other.id})`);
    const admin = { ctx: { ...signedIn.ctx, viewer: { ...signedIn.viewer, role: "ADMIN" as const } } };
    // A folder that holds something else is refused: the run fails.
    mkdirSync(target, { recursive: true });
    writeFileSync(path.join(target, "someone-elses.txt"), "x");
    expect(await runScheduledBackup(getDb())).toBe("failed");
    const [failed] = await getDb().execute<{ result: string; error: string; trigger: string }>(sql`select result, error, trigger from backup_runs order by id desc limit 1`);
    expect(failed).toMatchObject({ result: "failed", trigger: "scheduled" });
    expect(failed.error).toMatch(/holds no Krug backup/);
    const [mails] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from pgboss.job where name = 'send-mail'`);
    expect(mails.n).toBe(2); // both administrators, nobody else

    let overview = await getHealthOverview({ ctx: admin.ctx });
    expect(overview.backup).toMatchObject({ scheduled: true, last: { result: "failed" } });

    rmSync(path.join(target, "someone-elses.txt"));
    expect(await runScheduledBackup(getDb())).toBe("succeeded");
    overview = await getHealthOverview({ ctx: admin.ctx });
    expect(overview.backup.last).toMatchObject({ result: "succeeded", trigger: "scheduled" });
    expect(overview.backup.last!.bytes).toBeGreaterThan(0);
    expect(overview.backup.last!.destinationBytes).toBeGreaterThanOrEqual(overview.backup.last!.bytes!);
  }, 60_000);

  it("is for staff only", async () => {
    const user = await signedInAccount();
    await expect(getHealthOverview({ ctx: user.ctx })).rejects.toThrow();
    await expect(getHealthOverview({ ctx: ctxOf() })).rejects.toThrow();
  });
});

/** A destination with three bases (1, 20 and 27 November), one WAL segment and one pooled upload each, and a history file. */
function makeDestination(dest: string) {
  const wal = path.join(dest, LAYOUT.wal);
  mkdirSync(wal, { recursive: true });
  writeFileSync(path.join(dest, LAYOUT.marker), "{}");
  const days = ["2026-11-01", "2026-11-20", "2026-11-27"];
  days.forEach((d, i) => {
    const id = `b${i}`;
    const base = path.join(dest, LAYOUT.base, id);
    mkdirSync(path.join(base, "pgdata"), { recursive: true });
    const segment = `00000001000000000000000${i + 1}`;
    writeFileSync(path.join(base, "pgdata", "backup_label"), `START WAL LOCATION: 0/${i + 1}000028 (file ${segment})\nCHECKPOINT LOCATION: 0/${i + 1}000080\nBACKUP METHOD: streamed\n`);
    writeFileSync(path.join(wal, segment), "");
    writeFileSync(path.join(base, "uploads.json"), JSON.stringify([{ path: `ab/ab${i}.png`, size: 1, mtimeMs: 0 }]));
    const finishedAt = `${d}T03:30:00.000Z`;
    writeFileSync(path.join(base, "backup.json"), JSON.stringify({ kind: "embedded", id, finishedAt, uploadsListedAt: finishedAt }));
    const file = path.join(dest, LAYOUT.uploads, "ab", `ab${i}.png`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "x");
    utimesSync(file, new Date(finishedAt), new Date(finishedAt));
  });
  writeFileSync(path.join(wal, "00000002.history"), "");
}

describe("retention", () => {
  const at = (iso: string) => ({ id: iso, finishedAt: new Date(iso).toISOString() });

  it("keeps the newest of each of the last 7 days and of each of the last 4 weeks", () => {
    // Two backups a day for 60 days, newest 2026-11-27.
    const all = [];
    for (let d = 0; d < 60; d++) {
      const day = new Date(Date.UTC(2026, 10, 27 - d));
      all.push(at(new Date(day.getTime() + 3 * 3600_000).toISOString()), at(new Date(day.getTime() + 15 * 3600_000).toISOString()));
    }
    const keep = [...backupsToKeep(all, 7, 4)].sort();
    // Days 21–27 November (the 15:00 one of each), and the weeks' newest: W48 (27th), W47 (22nd), W46 (15th), W45 (8th).
    expect(keep).toEqual(
      ["2026-11-08", "2026-11-15", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"].map(
        (d) => new Date(`${d}T15:00:00.000Z`).toISOString(),
      ),
    );
    expect(backupsToKeep([], 7, 4).size).toBe(0);
    expect([...backupsToKeep(all.slice(0, 3), 1, 0)]).toEqual([all[1].id]);
  });

  it("deletes the other backups, the WAL before the oldest kept one, and pooled uploads no kept backup needs", async () => {
    const dest = path.join(root, "retention");
    const wal = path.join(dest, LAYOUT.wal);
    makeDestination(dest);
    // Keep two days and no week: the oldest backup goes, with what only it needed.
    expect(await applyRetention(dest, 2, 0)).toEqual(["b0"]);
    expect(existsSync(path.join(dest, LAYOUT.base, "b0"))).toBe(false);
    expect(existsSync(path.join(dest, LAYOUT.base, "b1"))).toBe(true);
    expect(existsSync(path.join(wal, "000000010000000000000001"))).toBe(false);
    expect(existsSync(path.join(wal, "000000010000000000000002"))).toBe(true);
    expect(existsSync(path.join(wal, "00000002.history"))).toBe(true);
    expect(existsSync(path.join(dest, LAYOUT.uploads, "ab", "ab0.png"))).toBe(false);
    expect(existsSync(path.join(dest, LAYOUT.uploads, "ab", "ab1.png"))).toBe(true);
  });

  it("does the same in an s3:// destination", async () => {
    const s3Dir = mkdtempSync("/tmp/krug-retention-s3rver-");
    const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: "kept" }] });
    const { port } = await server.run();
    const credentials = { region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
    try {
      const local = path.join(root, "retention-s3-local");
      makeDestination(local);
      const d = s3Destination("s3://kept/krug", credentials);
      await uploadStaged(d, local);
      expect(await remoteRetention("s3://kept/krug", credentials, root, 2, 0)).toEqual(["b0"]);
      const keys = (await d.client.send(new ListObjectsV2Command({ Bucket: "kept" }))).Contents!.map((o) => o.Key!);
      expect(keys.some((k) => k.startsWith("krug/base/b0/"))).toBe(false);
      expect(keys).toContain("krug/base/b1/backup.json");
      expect(keys).not.toContain("krug/wal/000000010000000000000001");
      expect(keys).toContain("krug/wal/000000010000000000000002");
      expect(keys).toContain("krug/wal/00000002.history");
      // Pooled uploads are judged by their upload time to the bucket (just now, after every listing): all stay.
      expect(keys).toContain("krug/uploads/ab/ab0.png");
      d.client.destroy();
    } finally {
      await server.close();
      rmSync(s3Dir, { recursive: true, force: true });
    }
  });

  it("trims the local WAL archive to what the newest backup needs, or to a day without BACKUP_TARGET", async () => {
    expect(segmentOfLsn("0/3000028")).toBe("000000000000000000000003");
    expect(segmentOfLsn("1A/FF000000")).toBe("000000000000001A000000FF");
    const dataDir = path.join(root, "local-wal");
    mkdirSync(path.join(dataDir, "pg"), { recursive: true });
    const archive = path.join(dataDir, "wal-archive");
    mkdirSync(archive, { recursive: true });
    const names = [1, 2, 3, 4].map((n) => `00000001000000000000000${n}`);
    for (const n of [...names, "000000010000000000000002.00000028.backup", "00000002.history"]) writeFileSync(path.join(archive, n), "");
    const now = new Date();
    expect(await pruneLocalWal(dataDir, segmentOfLsn("0/3000028"), now)).toBe(3);
    expect(readdirSync(archive).sort()).toEqual(["000000010000000000000003", "000000010000000000000004", "00000002.history"]);
    // Without a destination: older than a day goes (never the timeline history).
    const old = new Date(now.getTime() - 2 * 86_400_000);
    utimesSync(path.join(archive, names[2]), old, old);
    utimesSync(path.join(archive, "00000002.history"), old, old);
    expect(await pruneLocalWal(dataDir, null, now)).toBe(1);
    expect(readdirSync(archive).sort()).toEqual(["000000010000000000000004", "00000002.history"]);
  });
});
