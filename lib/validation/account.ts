import { z } from "zod";
import { NAME_MAX, nameSchema, stripName } from "./name";
import { storedPathSchema } from "./storage";
import { hasControls, lineString } from "./text";

export { NAME_MAX, nameSchema, stripName };

// Shared by the account routes, the services (which re-parse), the settings and search forms and the
// SWR hooks. Messages are keys of messages/*.json (namespace accountErrors or validation); the API
// translates them.

export const ABOUT_MAX = 1000;
export const PLACE_MAX = 100;
export const PHONE_MAX = 30;
export const SEARCH_TEXT_MAX = 100;
export const SEARCH_PAGE_SIZE_DEFAULT = 5;
export const SEARCH_PAGE_SIZE_MAX = 100;
export const OLDEST_BIRTH_DATE = "1900-01-01";

/**
 * The six emoji statuses of the settings page (spec section 2). The account stores the preset id;
 * the client shows the emoji.
 */
export const EMOJI_STATUS_PRESETS = {
  happy: "😊",
  love: "❤️",
  cool: "😎",
  thinking: "🤔",
  sad: "😢",
  busy: "💼",
} as const;
export type EmojiStatus = keyof typeof EMOJI_STATUS_PRESETS;
export const EMOJI_STATUSES = Object.keys(EMOJI_STATUS_PRESETS) as [EmojiStatus, ...EmojiStatus[]];

/** Free text kept exactly as typed (no HTML meaning anywhere: clients render it as text). */
function plainText(max: number, { multiline }: { multiline: boolean }) {
  return z
    .string()
    .max(max, "validation.tooLong")
    .refine((v) => !hasControls(v, { multiline }), "accountErrors.invalidCharacters");
}

/** "" and null both clear an optional field; undefined leaves it as it is. */
function clearable<T extends z.ZodType>(schema: T) {
  return z.union([z.null(), z.literal("").transform(() => null), schema]);
}

/** Today's date somewhere on Earth (UTC+14): a birthday typed "today" is never refused as future. */
function latestToday(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

/**
 * "YYYY-MM-DD", or an ISO date-time taken to the nearest day (other clients send local midnight as UTC:
 * "1990-05-16T21:00:00Z" from Moscow is 17 May).
 */
export const birthDateSchema = z
  .string()
  .max(40, "accountErrors.birthDateInvalid")
  .transform((v) => {
    const t = v.trim();
    if (!/^\d{4}-\d{2}-\d{2}T/.test(t)) return t;
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? t : new Date(ms + 12 * 3600_000).toISOString().slice(0, 10);
  })
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "accountErrors.birthDateInvalid")
  .refine((v) => v <= latestToday(), "accountErrors.birthDateFuture")
  .refine((v) => v >= OLDEST_BIRTH_DATE, "accountErrors.birthDateTooOld");

export const phoneSchema = z
  .string()
  .trim()
  .max(PHONE_MAX, "validation.tooLong")
  .regex(/^\+?[0-9][0-9 ()-]{3,}[0-9]$/, "accountErrors.phoneInvalid");

/** PUT account/me: every field optional; `isDeleted: false` restores a deleted account within its window. */
export const updateAccountInput = z.object({
  firstName: nameSchema.optional(),
  lastName: nameSchema.optional(),
  photo: clearable(storedPathSchema).optional(),
  profileCover: clearable(storedPathSchema).optional(),
  // "" and "none" (another client's word for no date) clear it too.
  birthDate: z.union([z.literal("none").transform(() => null), clearable(birthDateSchema)]).optional(),
  phone: clearable(phoneSchema).optional(),
  country: clearable(plainText(PLACE_MAX, { multiline: false }).transform((v) => v.trim())).optional(),
  city: clearable(plainText(PLACE_MAX, { multiline: false }).transform((v) => v.trim())).optional(),
  // The ids GET geo/country and geo/country/{id}/city answer; they win over `country`/`city` titles.
  countryId: z
    .union([z.null(), z.string()], { error: "geoErrors.countryNotFound" })
    .transform((v) => (v === null || v.trim() === "" ? null : v.trim().toUpperCase()))
    .refine((v) => v === null || /^[A-Z]{2}$/.test(v), "geoErrors.countryNotFound")
    .optional(),
  cityId: z
    .union([z.null(), z.number(), z.string()], { error: "geoErrors.cityNotFound" })
    .transform((v) => (v === null || v === "" ? null : typeof v === "number" ? v : /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : Number.NaN))
    .refine((v) => v === null || (Number.isInteger(v) && v > 0 && v <= 2_147_483_647), "geoErrors.cityNotFound")
    .optional(),
  about: clearable(plainText(ABOUT_MAX, { multiline: true })).optional(),
  emojiStatus: z.union([z.null(), z.literal("").transform(() => null), z.enum(EMOJI_STATUSES, "accountErrors.emojiStatusInvalid")]).optional(),
  isDeleted: z.literal(false, { error: "accountErrors.useDeleteToDelete" }).optional(),
});
export type UpdateAccountInput = z.input<typeof updateAccountInput>;

/** An account id in a path. */
export const accountIdParams = z.object({
  id: z.coerce.number({ error: "accountErrors.notFound" }).int().positive().max(Number.MAX_SAFE_INTEGER),
});

// Query strings: empty values (firstName=) count as absent, as forms send every field.
function query<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess(
    (raw) =>
      raw && typeof raw === "object"
        ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v !== undefined && v !== null))
        : raw,
    z.object(shape),
  );
}

const searchText = lineString().trim().max(SEARCH_TEXT_MAX, "validation.tooLong");
const boolParam = z.enum(["true", "false"]).transform((v) => v === "true");
const age = z.coerce.number().int().min(0).max(150);
const paging = {
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(SEARCH_PAGE_SIZE_MAX).default(SEARCH_PAGE_SIZE_DEFAULT),
};

export const ACCOUNT_SORT_FIELDS = ["id", "firstName", "lastName", "birthDate", "age", "lastOnlineTime"] as const;
/** `sort=field,dir` as Spring clients send it; dir defaults to asc. */
const sortParam = z
  .string()
  .regex(new RegExp(`^(${ACCOUNT_SORT_FIELDS.join("|")})(,(asc|desc))?$`, "i"), "accountErrors.sortInvalid")
  .transform((v) => {
    const [field, dir] = v.split(",");
    const canonical = ACCOUNT_SORT_FIELDS.find((f) => f.toLowerCase() === field.toLowerCase())!;
    return { field: canonical, dir: (dir?.toLowerCase() ?? "asc") as "asc" | "desc" };
  });

/** GET account/search. */
export const accountSearchQuery = query({
  firstName: searchText.optional(),
  lastName: searchText.optional(),
  author: searchText.optional(),
  country: searchText.optional(),
  city: searchText.optional(),
  /** ISO code / GeoNames id (GET geo/…): exact, through the place index; they win over the texts. */
  countryId: z.string().trim().regex(/^[A-Za-z]{2}$/, "geoErrors.countryNotFound").transform((v) => v.toUpperCase()).optional(),
  cityId: z.coerce.number("geoErrors.cityNotFound").int("geoErrors.cityNotFound").positive("geoErrors.cityNotFound").max(2_147_483_647, "geoErrors.cityNotFound").optional(),
  ageFrom: age.optional(),
  ageTo: age.optional(),
  isDeleted: boolParam.default(false),
  showFriends: boolParam.default(false),
  sort: sortParam.optional(),
  ...paging,
}).refine((q) => q.ageFrom === undefined || q.ageTo === undefined || q.ageFrom <= q.ageTo, {
  message: "accountErrors.ageRange",
  path: ["ageTo"],
});
export type AccountSearchQuery = z.output<typeof accountSearchQuery>;

/**
 * Relations that can be listed by status: the six tabs of /friends. REJECTING ("they blocked me") is
 * never listed, as in the friends lists.
 */
export const LISTABLE_STATUS_CODES = ["REQUEST_FROM", "REQUEST_TO", "WATCHING", "BLOCKED", "SUBSCRIBED", "FRIEND"] as const;

/** GET account/search/statusCode. */
export const accountStatusSearchQuery = query({
  firstName: searchText.optional(),
  statusCode: z.enum(LISTABLE_STATUS_CODES, "accountErrors.statusCodeInvalid"),
  ...paging,
});
export type AccountStatusSearchQuery = z.output<typeof accountStatusSearchQuery>;

/** The notification types that have a switch (spec section 3), and the switch each one flips. */
export const NOTIFICATION_SETTING_FIELDS = {
  POST: "enablePost",
  POST_COMMENT: "enablePostComment",
  COMMENT_COMMENT: "enableCommentComment",
  // Issue 27: "someone shared my post".
  REPOST: "enableRepost",
  FRIEND_REQUEST: "enableFriendRequest",
  MESSAGE: "enableMessage",
  // Issue 41: "someone added me to a group conversation".
  GROUP_ADDED: "enableGroupAdded",
  // Issue 42: communities — requests to join one I run, my request accepted, invitations, new posts.
  COMMUNITY_REQUEST: "enableCommunityRequest",
  COMMUNITY_ACCEPTED: "enableCommunityAccepted",
  COMMUNITY_INVITATION: "enableCommunityInvitation",
  COMMUNITY_POST: "enableCommunityPost",
  FRIEND_BIRTHDAY: "enableFriendBirthday",
  // Issue 26: "your report was reviewed".
  REPORT_RESOLVED: "enableReportResolved",
  SEND_EMAIL_MESSAGE: "enableSendEmailMessage",
} as const;
export type NotificationSettingType = keyof typeof NOTIFICATION_SETTING_FIELDS;
export const NOTIFICATION_SETTING_TYPES = Object.keys(NOTIFICATION_SETTING_FIELDS) as [
  NotificationSettingType,
  ...NotificationSettingType[],
];

/** PUT notifications/settings. */
export const notificationSettingInput = z.object({
  notificationType: z.enum(NOTIFICATION_SETTING_TYPES, "accountErrors.notificationTypeInvalid"),
  enable: z.boolean({ error: "accountErrors.enableBoolean" }),
});
export type NotificationSettingInput = z.infer<typeof notificationSettingInput>;
