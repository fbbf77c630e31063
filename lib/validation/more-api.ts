// The reference of notifications/*, push/*, reports, admin/*, admin-console/*, geo/*, weather (issue 29,
// docs/adr/0138). Requests: the schemas of lib/validation; answers: strict objects shaped like the DTOs.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { notificationSettingInput } from "./account";
import {
  adminAuditQuery,
  adminContentQuery,
  adminUsersQuery,
  blockInput,
  blockedServersQuery,
  serverHostParams,
  consoleStatisticParams,
  consoleStatisticQuery,
  idParams,
  roleInput,
  statisticsQuery,
} from "./admin";
import { countBody, id, isoTime, pageOf, personCard, registerOperation, orNull } from "./api-common";
import { countryIdParams } from "./geo";
import { markReadInput, notificationPageQuery, NOTIFICATION_TYPES } from "./notifications";
import { pushSubscriptionIdParams, pushSubscriptionInput } from "./push";
import { adminReportsQuery, reportInput, resolveReportInput } from "./reports";
import { REPORT_ACTIONS, REPORT_CATEGORIES, REPORT_STATUSES, REPORT_TARGET_TYPES } from "./reports-shared";
import { weatherQuery } from "./weather";

export const notificationType = z.enum(NOTIFICATION_TYPES).meta({ id: "NotificationType" });
const notificationFields = {
  id,
  notificationType,
  sentTime: isoTime,
  content: z.string().meta({ description: "Plain-text excerpt: post title, comment or message start; for SEND_EMAIL_MESSAGE the mail kind." }),
  isRead: z.boolean(),
  data: z.strictObject({
    id,
    notificationType,
    content: z.string(),
    sentTime: isoTime,
    authorId: z.number().int().nullable(),
    receiverId: id,
    author: orNull(personCard),
    postId: z.number().int().nullable(),
    commentId: z.number().int().nullable(),
    dialogId: z.number().int().nullable(),
    communityId: z.number().int().optional().meta({ description: "COMMUNITY_* types only: the community the entry is about." }),
    community: z
      .strictObject({ id, name: z.string(), photo: z.string().nullable() })
      .nullable()
      .optional()
      .meta({ description: "COMMUNITY_* types only: the community's name and photo now; null when it is no longer there." }),
    gone: z.enum(["COMMENT", "POST", "ACCOUNT", "COMMUNITY"]).nullable().optional(),
    requestPending: z.boolean().optional(),
    details: z
      .strictObject({
        targetType: z.enum(["POST", "COMMENT", "MESSAGE", "ACCOUNT", "COMMUNITY"]),
        excerpt: z.string(),
        reason: z.string().nullable().optional(),
      })
      .optional()
      .meta({ description: "REPORT_RESOLVED and CONTENT_BLOCKED only: the item the notice is about (a short quote or a profile's name) and, for CONTENT_BLOCKED, the moderator's reason." }),
    count: z.number().int().meta({ description: "How many people a grouped entry stands for." }),
    authors: z.array(personCard),
  }).meta({ description: "The specification's clients read id, notificationType, content and sentTime here too (issue 29 §3)." }),
};
const notificationExample = {
  id: 77, notificationType: "POST_COMMENT", sentTime: "2026-11-27T09:00:00.000Z", content: "Какие виды! Завидую.", isRead: false,
  data: { id: 77, notificationType: "POST_COMMENT", content: "Какие виды! Завидую.", sentTime: "2026-11-27T09:00:00.000Z", authorId: 43, receiverId: 42, author: { id: 43, firstName: "Игорь", lastName: "Петров", photo: null }, postId: 101, commentId: 501, dialogId: null, count: 1, authors: [{ id: 43, firstName: "Игорь", lastName: "Петров", photo: null }] },
};
export const notificationDto = z.strictObject(notificationFields).meta({ id: "Notification", example: notificationExample });
/** The live NOTIFICATION frame's data: the item with `timestamp` (= sentTime). */
export const notificationFrameData = z.strictObject({ ...notificationFields, timestamp: isoTime }).meta({ id: "NotificationFrameData", example: { ...notificationExample, timestamp: notificationExample.sentTime } });

const notificationSettings = z
  .strictObject({
    enablePost: z.boolean(),
    enablePostComment: z.boolean(),
    enableCommentComment: z.boolean(),
    enableFriendRequest: z.boolean(),
    enableMessage: z.boolean(),
    enableFriendBirthday: z.boolean(),
    enableReportResolved: z.boolean(),
    enableRepost: z.boolean(),
    enableGroupAdded: z.boolean(),
    enableCommunityRequest: z.boolean(),
    enableCommunityAccepted: z.boolean(),
    enableCommunityInvitation: z.boolean(),
    enableCommunityPost: z.boolean(),
    enableSendEmailMessage: z.boolean(),
  })
  .meta({ id: "NotificationSettings" });

const pushDevice = z
  .strictObject({ id, userAgentLabel: z.string(), language: z.string(), createdAt: isoTime, lastSuccessAt: isoTime.nullable() })
  .meta({ id: "PushDevice", example: { id: 5, userAgentLabel: "Chrome, Android", language: "ru", createdAt: "2026-11-20T18:00:00.000Z", lastSuccessAt: null } });

const reportDto = z
  .strictObject({ id, targetType: z.enum(REPORT_TARGET_TYPES), targetId: id, category: z.enum(REPORT_CATEGORIES), createdAt: isoTime })
  .meta({ id: "Report", example: { id: 3, targetType: "POST", targetId: 101, category: "SPAM", createdAt: "2026-11-27T12:00:00.000Z" } });

/** Issue 40: copies of the item's photos kept with the report, served to staff only (GET admin/reports/files/{key}). */
const keptPhotos = z
  .array(z.string())
  .optional()
  .meta({ description: "The photos kept with the report (the post's image, the profile's photo, the reported message's photos), staff-only paths; absent in reports from before." });

const snapshot = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("POST"), title: z.string(), html: z.string(), imagePath: z.string().nullable(), author: personCard, time: isoTime, images: keptPhotos }),
    z.strictObject({ kind: z.literal("COMMENT"), postId: id, text: z.string(), author: personCard, time: isoTime }),
    z.strictObject({
      kind: z.literal("MESSAGE"),
      dialogId: id,
      messages: z.array(
        z.strictObject({
          id, authorId: id, text: z.string(), time: isoTime, reported: z.boolean(),
          imageCount: z.number().int().optional().meta({ description: "How many photos the message had (issue 40)." }),
          images: keptPhotos,
        }),
      ),
      people: z.array(personCard),
    }),
    z.strictObject({ kind: z.literal("ACCOUNT"), person: personCard, about: z.string().nullable(), images: keptPhotos }),
    z
      .strictObject({
        kind: z.literal("COMMUNITY"), name: z.string(), description: z.string(), photo: z.string().nullable(), cover: z.string().nullable(),
        type: z.enum(["OPEN", "CLOSED", "PRIVATE"]), owner: personCard, membersCount: z.number().int(), images: keptPhotos,
      })
      .meta({ description: "A reported community's card (issue 42); images are the kept photo and cover." }),
  ])
  .meta({ id: "ReportSnapshot" });

const reportGroup = z
  .strictObject({
    id,
    targetType: z.enum(REPORT_TARGET_TYPES),
    targetId: id,
    status: z.enum(REPORT_STATUSES),
    reportsCount: z.number().int(),
    firstReportedAt: isoTime,
    lastReportedAt: isoTime,
    snapshot,
    author: personCard.extend({ isBlocked: z.boolean(), blockedUntil: isoTime.nullable() }).nullable(),
    targetState: z.strictObject({ isDeleted: z.boolean(), isBlocked: z.boolean() }),
    categories: z.array(z.strictObject({ category: z.enum(REPORT_CATEGORIES), count: z.number().int() })),
    reports: z.array(z.strictObject({ id, reporter: personCard, category: z.enum(REPORT_CATEGORIES), comment: z.string().nullable(), createdAt: isoTime })),
    history: z.strictObject({ earlierReports: z.number().int(), blocks: z.number().int() }),
    resolution: z.strictObject({ action: z.enum(REPORT_ACTIONS), reason: z.string().nullable(), resolvedAt: isoTime, moderator: orNull(personCard) }).nullable(),
  })
  .meta({ id: "ReportGroup" });

const staffName = z.strictObject({ id, firstName: z.string(), lastName: z.string() });
const adminUser = z
  .strictObject({
    id, firstName: z.string(), lastName: z.string(), email: z.string(), photo: z.string().nullable(), role: z.enum(["USER", "MODERATOR", "ADMIN"]),
    isBlocked: z.boolean(), isDeleted: z.boolean(), createdAt: isoTime, lastOnlineTime: isoTime.nullable(),
  })
  .meta({ id: "AdminUser" });
const auditEntry = z
  .strictObject({
    id, action: z.string(), targetType: z.enum(["ACCOUNT", "POST", "COMMENT", "MESSAGE", "COMMUNITY"]), targetId: id, targetAccountId: z.number().int().nullable(),
    reason: z.string().nullable(), details: z.record(z.string(), z.unknown()).nullable(), createdAt: isoTime, actor: staffName.nullable(),
  })
  .meta({ id: "AuditEntry" });
const adminUserCard = adminUser
  .extend({
    counts: z.strictObject({ posts: z.number().int(), comments: z.number().int(), reactions: z.number().int(), friends: z.number().int() }),
    recentPosts: z.array(z.strictObject({ id, title: z.string(), time: isoTime, isBlocked: z.boolean() })),
    recentComments: z.array(z.strictObject({ id, postId: id, commentText: z.string(), time: isoTime, isBlocked: z.boolean() })),
    audit: z.array(auditEntry),
  })
  .meta({ id: "AdminUserCard" });
const adminPost = z
  .strictObject({ id, title: z.string(), excerpt: z.string(), time: isoTime, author: staffName, isBlocked: z.boolean(), isDeleted: z.boolean(), commentsCount: z.number().int(), likeAmount: z.number().int() })
  .meta({ id: "AdminPost" });
const adminComment = z
  .strictObject({ id, postId: id, commentText: z.string(), time: isoTime, author: staffName, isBlocked: z.boolean(), isDeleted: z.boolean() })
  .meta({ id: "AdminComment" });
const totals = z.strictObject({
  accounts: z.number().int(), posts: z.number().int(), comments: z.number().int(), reactions: z.number().int(),
  communities: z.number().int().meta({ description: "New communities; in the all-time totals, the live ones (neither deleted nor blocked)." }),
});
const statistics = z
  .strictObject({
    interval: z.enum(["day", "month"]), from: z.string(), to: z.string(),
    series: z.array(totals.extend({ date: z.string() })), totals, period: totals, previousPeriod: totals,
  })
  .meta({ id: "Statistics" });
const consoleStatistic = z
  .strictObject({
    date: z.string(), count: z.number().int(),
    countPerHours: z.array(z.strictObject({ date: z.string(), count: z.number().int() })),
    countPerMonth: z.array(z.strictObject({ date: z.string(), count: z.number().int() })),
  })
  .meta({ id: "ConsoleStatistic" });

const weatherDto = z
  .strictObject({
    status: z.enum(["fresh", "stale", "unavailable", "noCity"]),
    city: z.strictObject({ id, title: z.string(), countryId: z.string() }).nullable(),
    fetchedAt: isoTime.nullable(),
    weather: z
      .strictObject({
        current: z.strictObject({ temperature: z.number(), code: z.number().int(), isDay: z.boolean() }),
        daily: z.array(z.strictObject({ date: z.string(), code: z.number().int(), min: z.number(), max: z.number() })),
      })
      .nullable(),
  })
  .meta({ id: "Weather", example: { status: "fresh", city: { id: 551487, title: "Казань", countryId: "RU" }, fetchedAt: "2026-11-27T12:00:00.000Z", weather: { current: { temperature: -3.5, code: 71, isDay: true }, daily: [{ date: "2026-11-27", code: 71, min: -6, max: -2 }] } } });

export function registerMoreApi(r: OpenAPIRegistry): void {
  const n = "Уведомления";
  registerOperation(r, {
    method: "get", path: "/api/v1/notifications", tag: n, access: "user",
    summary: "My newest notifications", description: "The spec's list form: the newest 20; content repeats notifications for the specification's clients.",
    ok: {
      200: {
        description: "The list.",
        schema: z.strictObject({ notifications: z.array(notificationDto), content: z.array(notificationDto), totalElements: z.number().int(), totalPages: z.number().int() }).meta({ id: "NotificationList" }),
      },
    },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/notifications/page", tag: n, access: "user", query: notificationPageQuery,
    summary: "My notifications, paged", description: "page, size (≤ 100, default 20), sort=sentTime,desc|asc. Notifications from blocked accounts are not made.",
    ok: { 200: { description: "A page.", schema: pageOf(notificationDto, "NotificationPage") } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/notifications/count", tag: n, access: "user",
    summary: "Unread notifications", description: "count, and again as data.count for the specification's clients.",
    ok: { 200: { description: "The count.", schema: z.strictObject({ count: z.number().int(), data: z.strictObject({ count: z.number().int() }) }).meta({ id: "NotificationCount", example: { count: 3, data: { count: 3 } } }) } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/notifications/readed", tag: n, access: "user", body: markReadInput, bodyRequired: false,
    bodyExample: { ids: [77, 78] },
    summary: "Mark notifications read", description: "No body: all; {ids} (1–100): only those of the viewer's.",
    ok: { 200: { description: "The unread left.", schema: countBody } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/notifications/settings", tag: n, access: "user",
    summary: "My notification switches", description: "One switch per notification kind.",
    ok: { 200: { description: "The switches.", schema: notificationSettings } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/notifications/settings", tag: n, access: "user", body: notificationSettingInput,
    bodyExample: { notificationType: "POST_COMMENT", enable: false },
    summary: "Flip a switch", description: "One notification kind on or off.",
    ok: { 200: { description: "The switches after the change.", schema: notificationSettings } },
  });

  const p = "Push";
  registerOperation(r, {
    method: "get", path: "/api/v1/push/subscriptions", tag: p, access: "user",
    summary: "My push devices", description: "And the VAPID public key a browser subscribes with.",
    ok: { 200: { description: "Devices.", schema: z.strictObject({ vapidPublicKey: z.string(), devices: z.array(pushDevice) }).meta({ id: "PushDevices" }) } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/push/subscriptions", tag: p, access: "user", body: pushSubscriptionInput, rateLimited: true, errors: [409],
    bodyExample: { endpoint: "https://push.example.net/send/abc123", keys: { p256dh: "BNc…", auth: "tBH…" } },
    summary: "Subscribe this browser", description: "A known endpoint answers 200, a new one 201; at most a few devices per account (more → 409).",
    ok: { 200: { description: "Already known.", schema: pushDevice }, 201: { description: "Subscribed.", schema: pushDevice } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/push/subscriptions/{id}", tag: p, access: "user", params: pushSubscriptionIdParams,
    summary: "Remove a device", description: "Only one's own (anyone else's → 404).",
    ok: { 204: { description: "Removed." } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/push/vapid-public-key", tag: p, access: "user",
    summary: "The VAPID public key", description: "The applicationServerKey.",
    ok: { 200: { description: "The key.", schema: z.strictObject({ vapidPublicKey: z.string() }) } },
  });

  registerOperation(r, {
    method: "post", path: "/api/v1/reports", tag: "Жалобы", access: "user", body: reportInput, bodyRequired: false, rateLimited: true, errors: [404, 409],
    bodyExample: { targetType: "POST", targetId: 101, category: "SPAM", comment: "Реклама в каждом посте" },
    summary: "Report a post, comment, message, account or community", description: "One report per target and reporter (again → 409); block:true also blocks the author (of a community: its owner). The target must be visible to the reporter (else 404; a private community to a non-member too).",
    ok: { 201: { description: "Reported.", schema: reportDto } },
  });

  const a = "Модерация";
  const staff = (path: string, summary: string, description: string, schema: z.ZodType, query?: z.ZodType) =>
    registerOperation(r, { method: "get", path, tag: a, access: "staff", query, summary, description, ok: { 200: { description: "The answer.", schema } } });
  staff("/api/v1/admin/users", "Accounts", "Newest first; query, blocked, deleted, role, paged.", pageOf(adminUser, "AdminUserPage"), adminUsersQuery);
  registerOperation(r, {
    method: "get", path: "/api/v1/admin/users/{id}", tag: a, access: "staff", params: idParams,
    summary: "An account's card", description: "Counts, recent activity and the audit of staff actions on it.",
    ok: { 200: { description: "The card.", schema: adminUserCard } },
  });
  for (const [verb, blocked] of [["block", true], ["unblock", false]] as const) {
    registerOperation(r, {
      method: "put", path: `/api/v1/admin/users/{id}/${verb}`, tag: a, access: "staff", params: idParams, body: blockInput, bodyRequired: false, errors: [409],
      bodyExample: { reason: "Спам в комментариях" },
      summary: blocked ? "Block an account" : "Unblock an account", description: "Audited; a blocked account's sessions end and its content is hidden. Staff cannot block staff (403).",
      ok: { 200: { description: "The account after the change.", schema: adminUser } },
    });
    for (const kind of ["posts", "comments"] as const) {
      registerOperation(r, {
        method: "put", path: `/api/v1/admin/${kind}/{id}/${verb}`, tag: a, access: "staff", params: idParams, body: blockInput, bodyRequired: false, errors: [409],
        bodyExample: { reason: "Нарушение правил" },
        summary: `${blocked ? "Block" : "Unblock"} a ${kind === "posts" ? "post" : "comment"}`, description: "Audited; blocked content is seen only by its author (marked) and staff.",
        ok: { 200: { description: "The state after the change.", schema: z.strictObject({ id, isBlocked: z.boolean() }).meta({ id: "BlockState" }) } },
      });
    }
  }
  for (const [verb, blocked] of [["block", true], ["unblock", false]] as const) {
    registerOperation(r, {
      method: "put", path: `/api/v1/admin/communities/{id}/${verb}`, tag: a, access: "staff", params: idParams, body: blockInput, bodyRequired: false,
      bodyExample: { reason: "Мошенничество" },
      summary: blocked ? "Block a community" : "Unblock a community",
      description: "Audited with the reason; a blocked community is absent to everyone, its owner too (404), with its wall and its posts in the feeds; unblocking brings it back.",
      ok: { 200: { description: "The state after the change.", schema: z.strictObject({ id, isBlocked: z.boolean() }).meta({ id: "BlockState" }) } },
    });
  }
  const blockedServer = z
    .strictObject({ id, host: z.string(), reason: z.string().nullable(), createdAt: z.string(), accounts: z.number().int().meta({ description: "Its people known here." }) })
    .meta({ id: "BlockedServer" });
  staff("/api/v1/admin/fediverse/servers", "Blocked fediverse servers", "Administrators only; newest first, paged, with how many of each server's people are known here.", pageOf(blockedServer, "BlockedServerPage"), blockedServersQuery);
  for (const [verb, blocked] of [["block", true], ["unblock", false]] as const) {
    registerOperation(r, {
      method: "put", path: `/api/v1/admin/fediverse/servers/{host}/${verb}`, tag: a, access: "admin", params: serverHostParams, body: blockInput, bodyRequired: false,
      bodyExample: { reason: "Спам с этого сервера" },
      summary: blocked ? "Block a fediverse server" : "Unblock a fediverse server",
      description:
        "Administrators only (issue 43); audited with the reason. While blocked: nothing is delivered to the server, its inbox traffic is refused (403), nobody is looked up there, and its people's accounts here are blocked (their content hidden); unblocking lifts all of it. Repeating changes nothing.",
      ok: { 200: { description: "The state after the change.", schema: z.strictObject({ host: z.string(), blocked: z.boolean(), accounts: z.number().int() }).meta({ id: "ServerBlockState" }) } },
    });
  }
  registerOperation(r, {
    method: "put", path: "/api/v1/admin/users/{id}/role", tag: a, access: "admin", params: idParams, body: roleInput, errors: [409],
    bodyExample: { role: "MODERATOR" },
    summary: "Grant or revoke a role", description: "Administrators only; audited; nobody changes their own role.",
    ok: { 200: { description: "The account after the change.", schema: adminUser } },
  });
  staff("/api/v1/admin/posts", "Posts for moderation", "text, author, dateFrom, dateTo, blocked, paged.", pageOf(adminPost, "AdminPostPage"), adminContentQuery);
  staff("/api/v1/admin/comments", "Comments for moderation", "text, author, dateFrom, dateTo, blocked, paged.", pageOf(adminComment, "AdminCommentPage"), adminContentQuery);
  staff("/api/v1/admin/audit", "The audit log", "Staff actions, newest first; accountId narrows it.", pageOf(auditEntry, "AuditPage"), adminAuditQuery);
  staff("/api/v1/admin/statistics", "Activity statistics", "Per day or month between from and to, with totals and the previous period.", statistics, statisticsQuery);
  staff("/api/v1/admin/reports", "The moderation queue", "status=OPEN|RESOLVED, sort=newest|most, paged; groups that concern the caller (their content, or themselves) are left out.", pageOf(reportGroup, "ReportGroupPage"), adminReportsQuery);
  staff("/api/v1/admin/reports/count", "Open reported targets", "The admin sidebar's live count (of the caller's queue).", countBody);
  registerOperation(r, {
    method: "put", path: "/api/v1/admin/reports/{id}", tag: a, access: "staff", params: idParams, body: resolveReportInput, errors: [409],
    bodyExample: { action: "BLOCK_CONTENT", reason: "Спам" },
    summary: "Resolve a reported target",
    description:
      "DISMISS, BLOCK_CONTENT (a post, comment or community) or BLOCK_AUTHOR (days: 1–3650, none: for good; it resolves the author's other open groups too); audited; the reporters are notified, naming the item, and a blocked item's author is told why. A group that concerns the caller (their content, or themselves) is a 403: another staff member resolves it.",
    ok: { 200: { description: "The group, resolved.", schema: reportGroup } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/admin/reports/files/{key}", tag: a, access: "staff", params: z.object({ key: z.string().max(200) }),
    summary: "A photo kept with a report", description: "A copy made when the item was reported (report-<hex>.webp); staff only, never cached.",
    ok: { 200: { description: "The photo.", schema: z.string().meta({ format: "binary" }), contentType: "image/webp" } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/admin-console/statistic/{kind}", tag: a, access: "staff", params: consoleStatisticParams, query: consoleStatisticQuery,
    summary: "Statistics in the specification's form", description: "kind account, post, comment or like; date, firstMonth ≤ lastMonth.",
    ok: { 200: { description: "The numbers.", schema: consoleStatistic } },
  });

  const g = "География";
  registerOperation(r, {
    method: "get", path: "/api/v1/geo/country", tag: g, access: "optional",
    summary: "Countries", description: "Every country, titled in the request's language.",
    ok: { 200: { description: "Countries.", schema: z.array(z.strictObject({ id: z.string(), title: z.string() })).meta({ example: [{ id: "RU", title: "Россия" }] }) } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/geo/country/{id}/city", tag: g, access: "optional", params: countryIdParams,
    summary: "Cities of a country", description: "Titled in the request's language; unknown country → 404.",
    ok: { 200: { description: "Cities.", schema: z.array(z.strictObject({ id, title: z.string(), countryId: z.string() })).meta({ example: [{ id: 551487, title: "Казань", countryId: "RU" }] }) } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/weather", tag: g, access: "user", query: weatherQuery, rateLimited: true, errors: [404],
    summary: "The weather card", description: "The viewer's profile city, or country+city from the picker (an unknown city → 404); never an error when the provider is down (status stale or unavailable). Per-account limit on picked cities.",
    ok: { 200: { description: "The card.", schema: weatherDto } },
  });
}
