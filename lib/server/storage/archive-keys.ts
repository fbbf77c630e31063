import "server-only";
import { randomBytes } from "node:crypto";

// The data export's archives (docs/adr/0127) live in the media store beside the uploads, but they are not
// uploads: each holds one person's e-mail, phone and private messages. The store writes them readable by
// Krug's user only, the public file route never serves them (STORED_KEY_RE), and backups leave them out —
// an archive lives 7 days and can be made again (issue 40 item 5, docs/adr/0161).

const EXPORT_ARCHIVE_KEY = /^export-[0-9a-f]{32}\.zip$/;

/** A new archive's key: random, so nobody can name another's archive. */
export function newExportArchiveKey(): string {
  return `export-${randomBytes(16).toString("hex")}.zip`;
}

/** Whether a store key (or a stored file's name) is a data-export archive. */
export function isExportArchiveKey(key: string): boolean {
  return EXPORT_ARCHIVE_KEY.test(key);
}
