import "server-only";
import type { BackupManifest } from "./layout";

// What `npm run backup` tells the person who ran it (issue 40 item 20): sizes a person reads, where the
// backup is, and the restore command to copy, exactly as it must be typed.

const UNITS = ["bytes", "KB", "MB", "GB", "TB"] as const;

/** 1536 → "1.5 KB", 34_200_000 → "32.6 MB" (units of 1024, as `du -h` and file managers count). */
export function humanBytes(n: number): string {
  if (!Number.isFinite(n) || n < 1024) return `${Math.max(0, Math.round(n || 0))} bytes`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

/** A word the shell passes on as it is (no quotes needed), else the word in single quotes. */
export function shellWord(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The lines printed when a backup is done: what it holds, where it is, and how to bring it back —
 * into an empty DATA_DIR (the embedded database) or an empty DATABASE_URL (a pg_dump backup).
 */
export function backupDoneLines(manifest: BackupManifest, dest: string): string[] {
  const wal = manifest.kind === "embedded" ? `, ${manifest.walFilesCopied} new WAL file${manifest.walFilesCopied === 1 ? "" : "s"}` : "";
  const files = manifest.uploadsCount !== undefined ? ` in ${manifest.uploadsCount} file${manifest.uploadsCount === 1 ? "" : "s"}` : "";
  const base = /^s3:\/\//i.test(dest) ? `${dest.replace(/\/+$/, "")}/base/${manifest.id}` : `${dest}/base/${manifest.id}`;
  const lines = [
    `done: backup ${manifest.id}: database ${humanBytes(manifest.databaseBytes)}, uploads ${humanBytes(manifest.uploadsBytes)}${files}${wal}`,
    `the backup is in ${dest} (this one: ${base})`,
  ];
  const command = `npm run restore -- ${shellWord(dest)}`;
  if (manifest.kind === "embedded") {
    lines.push(
      "to restore it: stop Krug, point DATA_DIR at an empty folder (or move the old one away), then run",
      `  ${command}`,
      `  (add --until "YYYY-MM-DD HH:MM" for an earlier moment covered by this folder), then npm start`,
    );
  } else {
    lines.push("to restore it: stop Krug, point DATABASE_URL at an empty database and DATA_DIR at an empty folder, then run", `  ${command}`, "  then npm start");
  }
  return lines;
}
