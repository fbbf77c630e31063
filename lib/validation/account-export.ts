import { z } from "zod";

// "Download my data" (issue 26 section 4, docs/adr/0127): shared by the routes, the service and the settings section.

/** NONE: never asked (or the last archive is gone); EXPIRED: ready once, past its 7 days, not yet swept. */
export const EXPORT_STATES = ["NONE", "PENDING", "READY", "FAILED", "EXPIRED"] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** GET and POST account/export answer this. Times are ISO strings; `url` and `size` only when READY. */
export type AccountExportDto = {
  state: ExportState;
  requestedAt: string | null;
  readyAt: string | null;
  expiresAt: string | null;
  /** The download (session-only: it answers nobody but the owner). */
  url: string | null;
  size: number | null;
  /** When POST will accept a new request; null: now. */
  nextRequestAt: string | null;
};

/** How long a ready archive can be downloaded. */
export const EXPORT_TTL_DAYS = 7;
/** One request per account in this window (a failed one does not count). */
export const EXPORT_INTERVAL_HOURS = 24;
/**
 * The most an archive holds (issue 40 item 6, docs/adr/0161): 1 GiB of content. The data files (profile,
 * posts, comments, messages …) always go in whole; photos are copied in order (the account's own, then
 * its chats') until the next would pass this, and the rest are named with their addresses in
 * images-not-copied.json, which the archive's index.html points to.
 */
export const ARCHIVE_MAX_BYTES = 1024 ** 3;

export const EXPORT_ARCHIVE_BASE = "/api/v1/account/export/archive/";

export function exportArchivePath(id: string): string {
  return EXPORT_ARCHIVE_BASE + id;
}

/** GET account/export/archive/{id}: the export's random id. */
export const exportArchiveParams = z.object({ id: z.uuid("exportErrors.notFound") });

export const EXPORT_ERRORS = {
  oncePerDay: "exportErrors.oncePerDay",
  notFound: "exportErrors.notFound",
  expired: "exportErrors.expired",
} as const;
