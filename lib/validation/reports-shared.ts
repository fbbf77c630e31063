// Report shapes shared by the server, the report dialog and the moderation queue (zod-free: client bundles
// import it). Issue 26 sections 1 and 2, docs/adr/0126.

/** COMMUNITY (issue 42): the community itself; its wall's posts and their comments are POST and COMMENT. */
export const REPORT_TARGET_TYPES = ["POST", "COMMENT", "MESSAGE", "ACCOUNT", "COMMUNITY"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_CATEGORIES = ["SPAM", "INSULT", "VIOLENCE", "ADULT", "FRAUD", "OTHER"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export const REPORT_ACTIONS = ["DISMISS", "BLOCK_CONTENT", "BLOCK_AUTHOR"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export const REPORT_STATUSES = ["OPEN", "RESOLVED"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The reporter's optional comment. */
export const REPORT_COMMENT_MAX = 1000;
/** A reported message comes with at most this many messages before it, from the same dialog. */
export const REPORT_MESSAGES_BEFORE = 5;
/** A period block of an author: 1 day to 10 years; no `days` means for good. */
export const REPORT_BLOCK_DAYS_MAX = 3650;

/** Outbox event to staff: the number of open report groups changed (the admin sidebar's live count). */
export const REPORTS_CHANGED_EVENT = "REPORTS_CHANGED";

export type ReportPerson = { id: number; firstName: string; lastName: string; photo: string | null };

/**
 * Photos kept with a report (issue 40, docs/adr/0164): copies under report-owned keys, served to staff only
 * at this path; the public file route refuses such keys.
 */
export const REPORT_FILES_BASE = "/api/v1/admin/reports/files/";
export const REPORT_FILE_KEY_RE = /^report-[a-f0-9]{32}\.webp$/;

/** The key of a report file's path, or null for anything else. */
export function reportFileKeyOf(path: string): string | null {
  const key = path.startsWith(REPORT_FILES_BASE) ? path.slice(REPORT_FILES_BASE.length) : "";
  return REPORT_FILE_KEY_RE.test(key) ? key : null;
}

/**
 * The target as it was when reported (reports.snapshot). `images` are the kept copies of its photos (the
 * post's image, the profile's photo, the reported message's photos: REPORT_FILES_BASE paths; absent in
 * snapshots from before issue 40); an earlier message of a reported one keeps its text and how many photos
 * it had, not the photos.
 */
export type ReportSnapshot =
  | { kind: "POST"; title: string; html: string; imagePath: string | null; author: ReportPerson; time: string; images?: string[] }
  | { kind: "COMMENT"; postId: number; text: string; author: ReportPerson; time: string }
  | {
      kind: "MESSAGE";
      dialogId: number;
      /** The reported message last; up to five earlier ones of the same dialog before it, oldest first. */
      messages: { id: number; authorId: number; text: string; time: string; reported: boolean; imageCount?: number; images?: string[] }[];
      people: ReportPerson[];
    }
  | { kind: "ACCOUNT"; person: ReportPerson; about: string | null; images?: string[] }
  | {
      /** Issue 42: a community's card; `images` are the kept photo and cover (in that order, those it had). */
      kind: "COMMUNITY";
      name: string;
      description: string;
      photo: string | null;
      cover: string | null;
      type: "OPEN" | "CLOSED" | "PRIVATE";
      owner: ReportPerson;
      membersCount: number;
      images?: string[];
    };

export type ReportDto = { id: number; targetType: ReportTargetType; targetId: number; category: ReportCategory; createdAt: string };

/** One row of the moderation queue: an open (or resolved) target with its reports. */
export type ReportGroupDto = {
  id: number;
  targetType: ReportTargetType;
  targetId: number;
  status: ReportStatus;
  reportsCount: number;
  firstReportedAt: string;
  lastReportedAt: string;
  /** The first report's snapshot: what was reported, whatever happened to the target since. */
  snapshot: ReportSnapshot;
  author: (ReportPerson & { isBlocked: boolean; blockedUntil: string | null }) | null;
  /** The target now: gone (deleted) or blocked already. */
  targetState: { isDeleted: boolean; isBlocked: boolean };
  categories: { category: ReportCategory; count: number }[];
  reports: { id: number; reporter: ReportPerson; category: ReportCategory; comment: string | null; createdAt: string }[];
  /** The author's history: earlier report groups against them and staff blocks of them or their content. */
  history: { earlierReports: number; blocks: number };
  resolution: { action: ReportAction; reason: string | null; resolvedAt: string; moderator: ReportPerson | null } | null;
};
