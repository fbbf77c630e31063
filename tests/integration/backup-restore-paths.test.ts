// Issue 40 item 7 (docs/adr/0161): a restore reads a folder someone else may have written. Every path its
// manifests and listings name is checked before anything is written: `..`, an absolute path, a base id that
// is a path, and a file that is a symbolic link out of the backup are refused, and nothing lands outside
// (or inside) the target.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LAYOUT } from "@/lib/server/backup/layout";
import { restoreEmbedded } from "@/lib/server/backup/embedded";
import { checkedRel, inside } from "@/lib/server/backup/safe-paths";

const root = mkdtempSync("/tmp/krug-restore-paths-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "20261202T050000Z-ab12";
const image = "ab/ab0123456789abcdef0123456789abcd.webp";

/** A backup folder that looks complete; `tamper` makes it hostile. */
function backupFolder(name: string, tamper: (base: string, folder: string) => void, id = ID): string {
  const folder = path.join(root, name);
  const base = path.join(folder, LAYOUT.base, ID);
  mkdirSync(path.join(base, "pgdata", "global"), { recursive: true });
  mkdirSync(path.join(folder, LAYOUT.wal), { recursive: true });
  mkdirSync(path.join(folder, LAYOUT.uploads, "ab"), { recursive: true });
  writeFileSync(path.join(folder, LAYOUT.marker), JSON.stringify({ format: "krug-backup", version: 1 }));
  writeFileSync(path.join(folder, LAYOUT.uploads, image), "image");
  writeFileSync(path.join(base, "pgdata", "PG_VERSION"), "18\n");
  writeFileSync(path.join(base, "pgdata", "backup_label"), "START WAL LOCATION: 0/2000028 (file 000000010000000000000002)\n");
  writeFileSync(path.join(base, "uploads.json"), JSON.stringify([{ path: image, size: 5, mtimeMs: 0 }]));
  const at = "2026-12-02T05:00:05.000Z";
  writeFileSync(path.join(base, "backup.json"), JSON.stringify({ format: "krug-base-backup", version: 1, kind: "embedded", id, finishedAt: at, uploadsListedAt: at }));
  tamper(base, folder);
  return folder;
}

async function refused(folder: string, pattern: RegExp) {
  const dataDir = path.join(root, `${path.basename(folder)}-target`);
  await expect(restoreEmbedded({ dataDir, source: folder })).rejects.toThrow(pattern);
  // Refused before anything was written: no cluster, no uploads, nothing beside the target.
  expect(existsSync(path.join(dataDir, "pg"))).toBe(false);
  expect(existsSync(path.join(dataDir, "uploads"))).toBe(false);
}

describe("a restore refuses any path that leaves its folder", () => {
  it("the path checks: relative, inside, no `..`, no absolute path", () => {
    expect(inside("/srv/b/uploads", "ab/x.webp", "upload")).toBe("/srv/b/uploads/ab/x.webp");
    for (const bad of ["../x", "ab/../../x", "/etc/passwd", "", "ab//x", "./x", "a\\..\\x", "a\0b", 7, null]) {
      expect(() => checkedRel(bad, "upload")).toThrow(/leaves its folder/);
    }
  });

  it("an upload listed as ../../… or as an absolute path", async () => {
    await refused(
      backupFolder("climbs", (base) => writeFileSync(path.join(base, "uploads.json"), JSON.stringify([{ path: "../../../../escaped.webp" }]))),
      /leaves its folder.*upload "\.\.\/\.\.\//,
    );
    await refused(backupFolder("absolute", (base) => writeFileSync(path.join(base, "uploads.json"), JSON.stringify([{ path: "/etc/passwd" }]))), /upload "\/etc\/passwd"/);
    expect(readdirSync(root).some((f) => f.startsWith("escaped"))).toBe(false);
  });

  it("an upload that is a symbolic link out of the backup (its bytes would be served by key)", async () => {
    const secret = path.join(root, "outside-secret.txt");
    writeFileSync(secret, "not the backup's");
    const folder = backupFolder("link", (_base, f) => {
      rmSync(path.join(f, LAYOUT.uploads, image));
      symlinkSync(secret, path.join(f, LAYOUT.uploads, image));
    });
    await refused(folder, /upload/);
  });

  it("a cluster directory listed outside the cluster, a base id that is a path, a secret that links out", async () => {
    await refused(backupFolder("dirs", (base) => writeFileSync(path.join(base, "pgdata-dirs.json"), JSON.stringify(["global", "../../../made-by-backup"]))), /cluster directory/);
    expect(existsSync(path.join(root, "made-by-backup"))).toBe(false);
    await refused(backupFolder("id", () => {}, "../../.."), /base backup id/);
    const secret = path.join(root, "operator-secret");
    writeFileSync(secret, "x");
    await refused(
      backupFolder("secret", (base) => {
        mkdirSync(path.join(base, "secrets"));
        symlinkSync(secret, path.join(base, "secrets", "auth-secret"));
      }),
      /secret/,
    );
  });
});
