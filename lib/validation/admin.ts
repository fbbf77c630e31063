import { z } from "zod";
import { BLOCK_REASON_MAX } from "./admin-shared";
import { lineString, textString } from "./text";

// Contracts of the admin API (issue 13), shared by the routes, the services (which parse) and the admin
// pages. Messages are keys of messages/*.json, namespace adminErrors; the API translates them.

export const ADMIN_ERRORS = {
  badQuery: "adminErrors.badQuery",
  notFound: "adminErrors.notFound",
  staffOnly: "adminErrors.staffOnly",
  adminOnly: "adminErrors.adminOnly",
  notSelf: "adminErrors.notSelf",
  staffTarget: "adminErrors.staffTarget",
  dateRange: "adminErrors.dateRange",
  rangeTooLong: "adminErrors.rangeTooLong",
  reasonTooLong: "adminErrors.reasonTooLong",
} as const;

export const ROLES = ["USER", "MODERATOR", "ADMIN"] as const;
export type Role = (typeof ROLES)[number];

export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_PAGE_SIZE_MAX = 100;
export const ADMIN_SEARCH_MAX = 100;
export { BLOCK_REASON_MAX };
/** Statistics ranges: at most this many days (per day) or months (per month). */
export const STATS_MAX_DAYS = 366;
export const STATS_MAX_MONTHS = 120;

/** Empty query values are absent: a form may send `blocked=` for "any". */
const dropEmpty = (raw: unknown) =>
  raw && typeof raw === "object" ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v != null)) : raw;

const intParam = z.coerce.number({ error: ADMIN_ERRORS.badQuery }).int(ADMIN_ERRORS.badQuery);
const page = intParam.min(0, ADMIN_ERRORS.badQuery).max(100_000, ADMIN_ERRORS.badQuery).default(0);
const size = intParam.min(1, ADMIN_ERRORS.badQuery).max(ADMIN_PAGE_SIZE_MAX, ADMIN_ERRORS.badQuery).default(ADMIN_PAGE_SIZE);
const bool = z.enum(["true", "false"], { error: ADMIN_ERRORS.badQuery }).transform((v) => v === "true");
const text = lineString().trim().max(ADMIN_SEARCH_MAX, ADMIN_ERRORS.badQuery);
/** "YYYY-MM-DD" or an ISO date-time. */
const dateParam = z
  .string()
  .max(40, ADMIN_ERRORS.badQuery)
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), ADMIN_ERRORS.badQuery)
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v));

export const idParams = z.object({ id: intParam.min(1, ADMIN_ERRORS.notFound).max(Number.MAX_SAFE_INTEGER, ADMIN_ERRORS.notFound) });

/** GET admin/users?query=&blocked=&deleted=&role=&page=&size= */
export const adminUsersQuery = z.preprocess(
  dropEmpty,
  z.object({
    query: text.optional(),
    blocked: bool.optional(),
    deleted: bool.optional(),
    role: z.enum(ROLES, { error: ADMIN_ERRORS.badQuery }).optional(),
    /** The staff page: every ADMIN and MODERATOR. */
    staff: bool.optional(),
    page,
    size,
  }),
);
export type AdminUsersQuery = z.input<typeof adminUsersQuery>;

/** GET admin/posts and admin/comments: text, author (name or id), date range, blocked. */
export const adminContentQuery = z.preprocess(
  dropEmpty,
  z
    .object({
      text: text.optional(),
      author: text.optional(),
      dateFrom: dateParam.optional(),
      dateTo: dateParam.optional(),
      blocked: bool.optional(),
      page,
      size,
    })
    .refine((q) => !q.dateFrom || !q.dateTo || q.dateFrom <= q.dateTo, { message: ADMIN_ERRORS.dateRange, path: ["dateTo"] }),
);
export type AdminContentQuery = z.input<typeof adminContentQuery>;

/** GET admin/audit?page=&size=&accountId= */
export const adminAuditQuery = z.preprocess(
  dropEmpty,
  z.object({ accountId: intParam.min(1, ADMIN_ERRORS.badQuery).optional(), page, size }),
);

/** PUT admin/users/{id}/block, admin/posts/{id}/block …: an optional reason. */
export const blockInput = z.object({
  reason: textString().trim().max(BLOCK_REASON_MAX, ADMIN_ERRORS.reasonTooLong).optional().nullable(),
});

/** A fediverse server as remote_actors.host holds it (issue 43): a host name and an optional port, lowercase. */
export const serverHostParams = z.object({
  host: z
    .string()
    .trim()
    .toLowerCase()
    .max(260, ADMIN_ERRORS.badQuery)
    .regex(/^(?=.{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?$/, ADMIN_ERRORS.badQuery)
    .meta({ description: "The server's host, with its port when not the default.", example: "social.example" }),
});

/** GET admin/fediverse/servers */
export const blockedServersQuery = z.object({
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

export type BlockedServerDto = { id: number; host: string; reason: string | null; createdAt: string; accounts: number };

/** PUT admin/users/{id}/role */
export const roleInput = z.object({ role: z.enum(ROLES, { error: ADMIN_ERRORS.badQuery }) });

/** GET admin/statistics?from=&to=&interval=day|month (default: the last 30 days per day). */
export const statisticsQuery = z.preprocess(
  dropEmpty,
  z
    .object({ from: dateParam.optional(), to: dateParam.optional(), interval: z.enum(["day", "month"], { error: ADMIN_ERRORS.badQuery }).default("day") })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: ADMIN_ERRORS.dateRange, path: ["to"] }),
);
export type StatisticsQuery = z.input<typeof statisticsQuery>;

/** GET admin-console/statistic/{kind}?date=&firstMonth=&lastMonth= (the original client). */
export const consoleStatisticParams = z.object({ kind: z.enum(["account", "post", "comment", "like"], { error: ADMIN_ERRORS.notFound }) });
export const consoleStatisticQuery = z.preprocess(
  dropEmpty,
  z
    .object({ date: dateParam.optional(), firstMonth: dateParam.optional(), lastMonth: dateParam.optional() })
    .refine((q) => !q.firstMonth || !q.lastMonth || q.firstMonth <= q.lastMonth, { message: ADMIN_ERRORS.dateRange, path: ["lastMonth"] }),
);

// ---- Response shapes ----

export type StatisticsPoint = { date: string; accounts: number; posts: number; comments: number; reactions: number; communities: number };
export type StatisticsTotals = { accounts: number; posts: number; comments: number; reactions: number; communities: number };
export type Statistics = {
  interval: "day" | "month";
  from: string;
  to: string;
  series: StatisticsPoint[];
  totals: StatisticsTotals;
  /** New in [from, to] and in the period of the same length just before it. */
  period: StatisticsTotals;
  previousPeriod: StatisticsTotals;
};

export type ConsoleStatistic = {
  date: string;
  /** All-time total up to `date`. */
  count: number;
  /** New per hour on the day of `date`. */
  countPerHours: { date: string; count: number }[];
  /** New per month from firstMonth to lastMonth. */
  countPerMonth: { date: string; count: number }[];
};

export type AdminUserDto = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  photo: string | null;
  role: Role;
  isBlocked: boolean;
  isDeleted: boolean;
  createdAt: string;
  lastOnlineTime: string | null;
};

export type AdminUserCard = AdminUserDto & {
  counts: { posts: number; comments: number; reactions: number; friends: number };
  recentPosts: { id: number; title: string; time: string; isBlocked: boolean }[];
  recentComments: { id: number; postId: number; commentText: string; time: string; isBlocked: boolean }[];
  audit: AuditEntryDto[];
};

export type AdminPostDto = {
  id: number;
  title: string;
  excerpt: string;
  time: string;
  author: { id: number; firstName: string; lastName: string };
  isBlocked: boolean;
  isDeleted: boolean;
  commentsCount: number;
  likeAmount: number;
};

export type AdminCommentDto = {
  id: number;
  postId: number;
  commentText: string;
  time: string;
  author: { id: number; firstName: string; lastName: string };
  isBlocked: boolean;
  isDeleted: boolean;
};

export type AuditEntryDto = {
  id: number;
  action: string;
  targetType: "ACCOUNT" | "POST" | "COMMENT" | "MESSAGE" | "COMMUNITY" | "SERVER";
  targetId: number;
  targetAccountId: number | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  createdAt: string;
  actor: { id: number; firstName: string; lastName: string } | null;
};
