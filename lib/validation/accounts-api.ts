// The reference of account/*, friends/* (issue 29, docs/adr/0138). Requests: lib/validation/account.ts,
// privacy.ts, account-export.ts, friends.ts; answers: strict objects shaped like the DTOs of the services.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { accountIdParams, accountSearchQuery, accountStatusSearchQuery, updateAccountInput } from "./account";
import { exportArchiveParams } from "./account-export";
import { countBody, friendStatus, id, isoTime, pageOf, registerOperation, orNull } from "./api-common";
import { friendListQuery, friendTargetInput, incomingRequestsQuery, noQuery, recommendationsQuery } from "./friends";
import { privacyUpdateInput } from "./privacy";

const accountExample = {
  id: 42, firstName: "Анна", lastName: "Смирнова", fullName: "Анна Смирнова", photo: "/api/v1/storage/files/a1b2c3.webp", profileCover: null,
  birthDate: "1994-03-08", age: 32, phone: "+79161234567", country: "Россия", countryId: "RU", city: "Казань", cityId: 551487,
  about: "Люблю горы и кофе", emojiStatus: "☕", isDeleted: false, deletionTimestamp: null, isOnline: true, lastOnlineTime: "2026-11-27T12:30:00.000Z",
  statusCode: "FRIEND", isClosed: false, canMessage: true,
};

export const accountDto = z
  .strictObject({
    id,
    firstName: z.string(),
    lastName: z.string(),
    fullName: z.string(),
    photo: z.string().nullable(),
    profileCover: z.string().nullable(),
    birthDate: z.string().nullable().meta({ description: "YYYY-MM-DD" }),
    age: z.number().int().nullable(),
    phone: z.string().nullable(),
    country: z.string().nullable().meta({ description: "Titled in the request's language." }),
    countryId: z.string().nullable().meta({ description: "ISO 3166-1 alpha-2." }),
    city: z.string().nullable(),
    cityId: z.number().int().nullable().meta({ description: "GeoNames id (GET geo/country/{id}/city)." }),
    about: z.string().nullable(),
    emojiStatus: z.string().nullable(),
    isDeleted: z.boolean(),
    deletionTimestamp: isoTime.nullable(),
    isOnline: z.boolean(),
    lastOnlineTime: isoTime.nullable(),
    statusCode: orNull(friendStatus).meta({ description: "The viewer's side of the relation; null for none or oneself." }),
    isClosed: z.boolean().meta({ description: "The page is closed to the viewer: only id, names, photo, isDeleted and statusCode carry values." }),
    canMessage: z.boolean(),
    canRequestFriend: z.boolean().optional().meta({ description: "Only on GET account/{id}." }),
    email: z.string().optional().meta({ description: "Own account only." }),
    fediverseAddress: z.string().nullable().optional().meta({ description: "Only on GET account/{id} and account/me: the account's fediverse address (its short name's, else id<N>@<host>) while it federates; a person of another server's own (user@server); null otherwise." }),
    remoteUrl: z.string().optional().meta({ description: "Only on GET account/{id} of a person of another server (issue 43): their profile's page there." }),
    remoteCounts: z
      .strictObject({ followers: z.number().int().nullable(), following: z.number().int().nullable(), posts: z.number().int().nullable() })
      .optional()
      .meta({ description: "Only on GET account/{id} of a person of another server: their counts as their server states them (null: not stated)." }),
    restoreUntil: isoTime.nullable().optional().meta({ description: "Own account only: until when a deleted account can be restored." }),
  })
  .meta({ id: "Account", example: accountExample });

export const privacySettings = z
  .strictObject({
    profileVisibility: z.enum(["ALL", "FRIENDS"]),
    messagesFrom: z.enum(["ALL", "FRIENDS"]),
    friendRequestsFrom: z.enum(["ALL", "FRIENDS_OF_FRIENDS"]),
    searchable: z.boolean(),
    fediverse: z.boolean().meta({
      description: "My public posts go to the fediverse (ActivityPub); off by default. While it is on and the page is open to everyone, the account has an actor, found by WebFinger as id<N>@<host> (and by its short name).",
    }),
    fediverseName: z.string().nullable().meta({ description: "The short fediverse address's name (durov of durov@<host>, the profile's URL /@durov): 3–32 Latin letters, digits and _, unique regardless of case; null until chosen." }),
  })
  .meta({ id: "PrivacySettings", example: { profileVisibility: "FRIENDS", messagesFrom: "ALL", friendRequestsFrom: "FRIENDS_OF_FRIENDS", searchable: true, fediverse: true, fediverseName: "durov" } });

export const accountExport = z
  .strictObject({
    state: z.enum(["NONE", "PENDING", "READY", "FAILED", "EXPIRED"]),
    requestedAt: isoTime.nullable(),
    readyAt: isoTime.nullable(),
    expiresAt: isoTime.nullable(),
    url: z.string().nullable(),
    size: z.number().int().nullable(),
    nextRequestAt: isoTime.nullable(),
  })
  .meta({ id: "AccountExport", example: { state: "READY", requestedAt: "2026-11-27T10:00:00.000Z", readyAt: "2026-11-27T10:01:12.000Z", expiresAt: "2026-12-04T10:01:12.000Z", url: "/api/v1/account/export/archive/6f1d0b1e-8d2a-4f57-9a3e-2b7c1d9e0f11", size: 183204, nextRequestAt: "2026-11-28T10:00:00.000Z" } });

export const friendSide = z
  .strictObject({ id: z.number().int().nullable(), friendId: id, statusCode: orNull(friendStatus), previousStatusCode: orNull(friendStatus) })
  .meta({ id: "FriendSide", description: "The viewer's side of one relation after the call; statusCode null when none remains.", example: { id: 17, friendId: 43, statusCode: "REQUEST_TO", previousStatusCode: null } });

const friendAccountSummary = z
  .strictObject({
    id,
    firstName: z.string(),
    lastName: z.string(),
    fullName: z.string(),
    photo: z.string().nullable(),
    city: z.string().nullable(),
    cityId: z.number().int().nullable(),
    country: z.string().nullable(),
    countryId: z.string().nullable(),
    age: z.number().int().nullable(),
    isOnline: z.boolean(),
    lastOnlineTime: isoTime.nullable(),
    emojiStatus: z.string().nullable(),
    isClosed: z.boolean().optional(),
    birthday: z.string().nullable().optional().meta({ description: "A friend's birthday as MM-DD; null for anyone else." }),
  })
  .meta({ id: "FriendAccount", example: { id: 43, firstName: "Игорь", lastName: "Петров", fullName: "Игорь Петров", photo: null, city: "Москва", cityId: 524901, country: "Россия", countryId: "RU", age: 29, isOnline: false, lastOnlineTime: "2026-11-27T09:15:00.000Z", emojiStatus: null, birthday: "11-27" } });

const friendListItem = z
  .strictObject({ id, friendId: id, statusCode: friendStatus, previousStatusCode: orNull(friendStatus), updatedAt: isoTime, account: friendAccountSummary })
  .meta({ id: "FriendListItem" });

const accountPage = pageOf(accountDto, "AccountPage");
const friendPage = pageOf(friendListItem, "FriendPage");

const recommendation = friendAccountSummary.extend({ mutualFriends: z.number().int(), statusCode: orNull(friendStatus) }).meta({ id: "FriendRecommendation" });

const TABS = ["REQUEST_FROM", "REQUEST_TO", "WATCHING", "BLOCKED", "SUBSCRIBED", "FRIEND"] as const;
const friendCounts = z.strictObject(Object.fromEntries(TABS.map((t) => [t, z.number().int()])) as Record<(typeof TABS)[number], z.ZodNumber>).meta({ id: "FriendCounts" });

const BLOCK_TEXT = "A block either way hides the other account: its items answer 404 and it cannot be written to or asked for friendship.";

export function registerAccountsApi(r: OpenAPIRegistry): void {
  const tag = "Аккаунт";
  registerOperation(r, {
    method: "get", path: "/api/v1/account/me", tag, access: "user",
    summary: "My account", description: "The signed-in account with its e-mail and, when deleted, restoreUntil.",
    ok: { 200: { description: "The account.", schema: accountDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/account/me", tag, access: "user", body: updateAccountInput, errors: [409],
    bodyExample: { firstName: "Анна", lastName: "Смирнова", city: "Казань", about: "Люблю горы и кофе", birthDate: "1994-03-08" },
    summary: "Edit my account (or restore it)",
    description: "Any of the fields; names keep Latin and Cyrillic letters and underscores; about and place are capped; a deleted account within its restore window is restored by any edit. isDeleted can only be false (use DELETE).",
    ok: { 200: { description: "The account after the change.", schema: accountDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/account/me", tag, access: "user",
    summary: "Delete my account",
    description: "Marks the account deleted; it can be restored (PUT account/me) until restoreUntil, then it is erased.",
    ok: { 200: { description: "The account, marked deleted.", schema: accountDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/account/{id}", tag, access: "user", params: accountIdParams,
    summary: "An account",
    description: `Another account as the viewer sees it: a closed page (privacy) shows only names and photo. Deleted or unknown → 404. ${BLOCK_TEXT}`,
    ok: { 200: { description: "The account.", schema: accountDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/account/search", tag, access: "user", query: accountSearchQuery, rateLimited: true,
    summary: "Search people",
    description: "By name parts (Latin finds Cyrillic and back), age range, country and city (texts or ids), friends only; paged (default size 5). Accounts that chose not to be searchable and blocked ones are left out. RATE_LIMIT_SEARCH per account.",
    ok: { 200: { description: "A page of accounts.", schema: accountPage } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/account/search/statusCode", tag, access: "user", query: accountStatusSearchQuery,
    summary: "Search my relations of one status", description: "The viewer's relations of statusCode (never REJECTING), filtered by first name; paged.",
    ok: { 200: { description: "A page of accounts.", schema: accountPage } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/account/privacy", tag, access: "user",
    summary: "My privacy settings", description: "Who sees the page, who may write, who may ask for friendship, whether search finds me, whether my public posts go to the fediverse and under which short address.",
    ok: { 200: { description: "The settings.", schema: privacySettings } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/account/privacy", tag, access: "user", body: privacyUpdateInput, bodyRequired: false, rateLimited: true, errors: [409],
    bodyExample: { profileVisibility: "FRIENDS" },
    summary: "Change my privacy settings", description: "Any of the settings; an unknown field or value → 400 with per-field issues; a short fediverse name someone else holds → 409.",
    ok: { 200: { description: "The settings after the change.", schema: privacySettings } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/account/export", tag, access: "user",
    summary: "My data archive", description: "The state of my latest archive and, when ready, its link (kept 7 days).",
    ok: { 200: { description: "The state.", schema: accountExport } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/account/export", tag, access: "user", errors: [429],
    summary: "Ask for a data archive", description: "Queues a new archive of everything the account wrote; once a day (a failed one does not count) → else 429.",
    ok: { 202: { description: "Queued.", schema: accountExport } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/account/export/archive/{id}", tag, access: "user", params: exportArchiveParams, errors: [410],
    summary: "Download my data archive",
    description: "The ZIP, for its owner only (anyone else → 404). Signed out, a browser navigation is sent to sign in first (303).",
    ok: {
      200: { description: "The archive.", schema: z.string().meta({ format: "binary" }), contentType: "application/zip" },
      303: { description: "A signed-out browser: to the sign-in page, back here after.", headers: { Location: "/login?next=…" } },
    },
  });

  const ftag = "Друзья";
  const target = friendTargetInput;
  const action = (method: "post" | "put" | "delete", path: string, summary: string, description: string, rateLimited = false) =>
    registerOperation(r, {
      method, path, tag: ftag, access: "user", params: target, errors: [409], rateLimited,
      summary, description: `${description} ${BLOCK_TEXT}`,
      ok: { 200: { description: "The viewer's side after the change.", schema: friendSide } },
    });
  action("post", "/api/v1/friends/{id}/request", "Ask for friendship", "Sends a request (or accepts theirs). Already sent → 400 \"request already sent!\"; blocked by them → 400 \"Blocked!\"; their friendRequestsFrom may refuse (403); a person of another server is followed, never asked (403). RATE_LIMIT_FRIEND_REQUEST per account.", true);
  action("put", "/api/v1/friends/{id}/approve", "Accept a friend request", "Accepts an incoming request.");
  action("post", "/api/v1/friends/subscribe/{id}", "Follow", "Subscribes to an account's posts. Following back a person of another server who follows the viewer makes the pair FRIEND: a mutual follow (no messages go there). RATE_LIMIT_SUBSCRIBE per account.", true);
  action("delete", "/api/v1/friends/{id}", "Remove a relation", "Unfriends, cancels or declines a request, unsubscribes or removes a subscriber.");
  action("put", "/api/v1/friends/block/{id}", "Block", "Blocks an account: every relation ends, neither sees the other's items or can write.");
  action("put", "/api/v1/friends/unblock/{id}", "Unblock", "Lifts the viewer's block.");
  registerOperation(r, {
    method: "get", path: "/api/v1/friends", tag: ftag, access: "user", query: friendListQuery,
    summary: "My relations of one status", description: "statusCode one of the six tabs (default FRIEND; REJECTING is never listed), paged, newest change first.",
    ok: { 200: { description: "A page.", schema: friendPage } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/friends/request", tag: ftag, access: "user", query: incomingRequestsQuery,
    summary: "Incoming friend requests", description: "Paged.",
    ok: { 200: { description: "A page.", schema: friendPage } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/friends/count", tag: ftag, access: "user", query: noQuery,
    summary: "The number of incoming requests", description: "No parameters (an unknown one → 400).",
    ok: { 200: { description: "The count.", schema: countBody } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/friends/counts", tag: ftag, access: "user", query: noQuery,
    summary: "The number on each friends tab", description: "An addition to the spec: one number per listable status.",
    ok: { 200: { description: "The counts.", schema: friendCounts } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/friends/recommendations", tag: ftag, access: "user", query: recommendationsQuery,
    summary: "People I may know", description: "Friends of friends by the number of mutual friends; never blocked, deleted or already related accounts. Krug's page envelope.",
    ok: { 200: { description: "A page.", schema: pageOf(recommendation, "RecommendationPage") } },
  });
}
