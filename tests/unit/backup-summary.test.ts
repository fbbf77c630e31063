import { describe, expect, it } from "vitest";
import type { BackupManifest } from "@/lib/server/backup/layout";
import { backupDoneLines, humanBytes, shellWord } from "@/lib/server/backup/summary";

const manifest: BackupManifest = {
  format: "krug-base-backup",
  version: 1,
  kind: "embedded",
  id: "20261202T050000Z-ab12",
  pgVersion: "18.1",
  startLsn: "0/4000028",
  stopLsn: "0/4000120",
  startedAt: "2026-12-02T05:00:00.000Z",
  finishedAt: "2026-12-02T05:00:05.000Z",
  uploadsListedAt: "2026-12-02T05:00:05.100Z",
  databaseBytes: 35_861_299,
  uploadsBytes: 1_572_864,
  walFilesCopied: 3,
  media: "local",
  uploadsCount: 12,
};

describe("what npm run backup prints (issue 40 item 20)", () => {
  it("sizes a person reads, not byte counts", () => {
    expect(humanBytes(0)).toBe("0 bytes");
    expect(humanBytes(1023)).toBe("1023 bytes");
    expect(humanBytes(1536)).toBe("1.5 KB");
    expect(humanBytes(35_861_299)).toBe("34.2 MB");
    expect(humanBytes(300 * 1024 * 1024)).toBe("300 MB");
    expect(humanBytes(5 * 1024 ** 3)).toBe("5.0 GB");
  });

  it("says where the backup is and the exact restore command", () => {
    const lines = backupDoneLines(manifest, "/srv/krug backups");
    expect(lines[0]).toBe("done: backup 20261202T050000Z-ab12: database 34.2 MB, uploads 1.5 MB in 12 files, 3 new WAL files");
    expect(lines.join("\n")).not.toMatch(/\d{5,} bytes/);
    expect(lines[1]).toBe("the backup is in /srv/krug backups (this one: /srv/krug backups/base/20261202T050000Z-ab12)");
    expect(lines).toContain("  npm run restore -- '/srv/krug backups'");
    expect(lines.join("\n")).toMatch(/empty folder/);
  });

  it("a pg_dump backup restores into an empty DATABASE_URL; an s3:// one names its URL", () => {
    const lines = backupDoneLines({ ...manifest, kind: "pg_dump", walFilesCopied: 0 }, "s3://krug/backups");
    expect(lines[0]).not.toContain("WAL");
    expect(lines[1]).toBe("the backup is in s3://krug/backups (this one: s3://krug/backups/base/20261202T050000Z-ab12)");
    expect(lines).toContain("  npm run restore -- s3://krug/backups");
    expect(lines.join("\n")).toMatch(/DATABASE_URL at an empty database/);
  });

  it("quotes what the shell would split or expand", () => {
    expect(shellWord("/srv/backups")).toBe("/srv/backups");
    expect(shellWord("/srv/it's here")).toBe(`'/srv/it'\\''s here'`);
    expect(shellWord("/srv/$HOME")).toBe("'/srv/$HOME'");
  });
});
