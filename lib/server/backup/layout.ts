import "server-only";
import type { S3StoreConfig } from "@/lib/server/storage/s3-store";

// A backup destination's layout and its manifests (docs/adr/0141, 0148), shared by the embedded server's
// backup, pg_dump's, the uploads' pool and the s3:// destinations.

/** A destination folder: */
export const LAYOUT = {
  marker: "krug-backup.json",
  /** The WAL segments (and timeline history files) every backup to this folder has collected. */
  wal: "wal",
  /** Every uploaded file any backup saw, under its store path (a file's key never changes its bytes). */
  uploads: "uploads",
  /** One folder per base backup: pgdata/, uploads.json, secrets/, and backup.json written last. */
  base: "base",
} as const;

export type BackupManifest = {
  format: "krug-base-backup";
  version: 1;
  /** embedded: the cluster's files + WAL (point-in-time recovery); pg_dump: a logical dump of an external database. */
  kind: "embedded" | "pg_dump";
  id: string;
  pgVersion: string;
  startLsn: string;
  stopLsn: string;
  /** The database server's clock when pg_backup_start returned and when pg_backup_stop did (ISO). */
  startedAt: string;
  finishedAt: string;
  /** When the uploads' listing was taken (ISO), just after finishedAt. */
  uploadsListedAt: string;
  databaseBytes: number;
  uploadsBytes: number;
  walFilesCopied: number;
  /** Where the uploads came from: DATA_DIR/uploads, or the media bucket (S3_BUCKET, docs/adr/0148). Absent: local. */
  media?: "local" | "s3";
  /** Files the base's uploads.json lists. */
  uploadsCount?: number;
  /** Media objects listed but deleted before they could be copied (their bytes are not in the backup). */
  mediaVanished?: number;
};

/** What a remote destination already holds (S3, remote.ts): those WAL files and uploads are not staged again. */
export type RemoteHolds = { wal: Set<string>; uploads: Set<string> };

/** One backup run's inputs: DATA_DIR, the destination folder (or stage), the database, and the media bucket when set. */
export type BackupOptions = {
  dataDir: string;
  dest: string;
  url: string;
  log?: (line: string) => void;
  remote?: RemoteHolds;
  /** The media bucket when uploads live in S3: it is copied instead of DATA_DIR/uploads (docs/adr/0148). */
  media?: S3StoreConfig | null;
};
