import { z } from "zod";
import {
  REPORT_ACTIONS,
  REPORT_BLOCK_DAYS_MAX,
  REPORT_CATEGORIES,
  REPORT_COMMENT_MAX,
  REPORT_STATUSES,
  REPORT_TARGET_TYPES,
} from "./reports-shared";
import { BLOCK_REASON_MAX } from "./admin-shared";
import { textString } from "./text";

export * from "./reports-shared";

export const REPORT_ERRORS = {
  badTarget: "reportErrors.badTarget",
  badCategory: "reportErrors.badCategory",
  commentTooLong: "reportErrors.commentTooLong",
  notFound: "reportErrors.notFound",
  self: "reportErrors.self",
  duplicate: "reportErrors.duplicate",
  rateLimited: "reportErrors.rateLimited",
  accountDeleted: "reportErrors.accountDeleted",
  badAction: "reportErrors.badAction",
  reasonRequired: "reportErrors.reasonRequired",
  badDays: "reportErrors.badDays",
  resolved: "reportErrors.resolved",
  notApplicable: "reportErrors.notApplicable",
  concernsYou: "reportErrors.concernsYou",
} as const;

// Contracts of POST reports and the admin queue (issue 26). Messages are keys of messages/*.json
// (namespace reportErrors); the API translates them.

const id = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z.string().regex(/^[1-9]\d{0,15}$/).transform(Number).refine(Number.isSafeInteger),
  ],
  { error: REPORT_ERRORS.badTarget },
);

/** POST reports {targetType, targetId, category, comment?, block?} — `block` also blocks the author, in the same step. */
export const reportInput = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES, { error: REPORT_ERRORS.badTarget }),
  targetId: id,
  category: z.enum(REPORT_CATEGORIES, { error: REPORT_ERRORS.badCategory }),
  comment: textString({ error: REPORT_ERRORS.commentTooLong })
    .trim()
    .max(REPORT_COMMENT_MAX, REPORT_ERRORS.commentTooLong)
    .nullish()
    .transform((v) => v || null),
  block: z.boolean({ error: REPORT_ERRORS.badTarget }).optional(),
});
export type ReportInput = z.input<typeof reportInput>;

const dropEmpty = (raw: unknown) =>
  raw && typeof raw === "object" ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v != null)) : raw;
const intParam = z.coerce.number({ error: "adminErrors.badQuery" }).int("adminErrors.badQuery");

/** GET admin/reports?status=OPEN|RESOLVED&sort=newest|most&page=&size= */
export const adminReportsQuery = z.preprocess(
  dropEmpty,
  z.object({
    status: z.enum(REPORT_STATUSES, { error: "adminErrors.badQuery" }).default("OPEN"),
    sort: z.enum(["newest", "most"], { error: "adminErrors.badQuery" }).default("newest"),
    page: intParam.min(0, "adminErrors.badQuery").max(100_000, "adminErrors.badQuery").default(0),
    size: intParam.min(1, "adminErrors.badQuery").max(100, "adminErrors.badQuery").default(20),
  }),
);
export type AdminReportsQuery = z.input<typeof adminReportsQuery>;

/** PUT admin/reports/{id} {action, reason, days?} — `days` only with BLOCK_AUTHOR; without it the block is for good. */
export const resolveReportInput = z
  .object({
    action: z.enum(REPORT_ACTIONS, { error: REPORT_ERRORS.badAction }),
    reason: textString({ error: REPORT_ERRORS.reasonRequired })
      .trim()
      .min(1, REPORT_ERRORS.reasonRequired)
      .max(BLOCK_REASON_MAX, "adminErrors.reasonTooLong"),
    days: z
      .number({ error: REPORT_ERRORS.badDays })
      .int(REPORT_ERRORS.badDays)
      .min(1, REPORT_ERRORS.badDays)
      .max(REPORT_BLOCK_DAYS_MAX, REPORT_ERRORS.badDays)
      .nullish(),
  })
  .refine((v) => v.days == null || v.action === "BLOCK_AUTHOR", { message: REPORT_ERRORS.badDays, path: ["days"] });
