// The reference of dialogs/* (issue 29, docs/adr/0138). Requests: lib/validation/dialogs.ts; answers:
// strict objects shaped like MessageDto and DialogDto (ids in conversationPartner1/2, cards beside them).
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { countBody, id, isoTime, pageOf, registerOperation } from "./api-common";
import {
  addMembersInput,
  createDialogInput,
  deleteMessageQuery,
  memberListQuery,
  memberParams,
  memberRoleInput,
  muteInput,
  readerListQuery,
  updateGroupInput,
  dialogByRecipientParams,
  dialogIdParams,
  dialogListQuery,
  editMessageInput,
  messageIdParams,
  messageListQuery,
  noDialogQuery,
  sendMessageInput,
} from "./dialogs";

const readStatus = z.enum(["SENT", "READ"]);

const memberCard = z.strictObject({ id, firstName: z.string(), lastName: z.string(), photo: z.string().nullable() }).meta({ id: "MemberCard" });

const groupEvent = z
  .strictObject({
    type: z.enum(["CREATED", "ADDED", "REMOVED", "LEFT", "RENAMED", "PHOTO", "ROLE"]),
    actorId: id,
    targetIds: z.array(id),
    title: z.string().nullable().meta({ description: "RENAMED: the new title; ROLE: the new role; PHOTO: null when the photo was removed." }),
    people: z.array(memberCard).meta({ description: "Cards of the actor and the targets." }),
  })
  .meta({ id: "GroupEvent", description: "An event line of a group conversation's history; its message has an empty text." });

const groupRole = z.enum(["OWNER", "ADMIN", "MEMBER"]);

export const messageDto = z
  .strictObject({
    id,
    dialogId: id,
    time: isoTime,
    conversationPartner1: id.meta({ description: "The author's account id." }),
    conversationPartner2: id.nullable().meta({ description: "The recipient's account id; null in a group conversation, where every member is a recipient." }),
    authorId: id,
    recipientId: id.nullable(),
    messageText: z.string(),
    images: z.array(z.string()).meta({ description: "URL paths of the message's photos; [] when none." }),
    readStatus,
    clientId: z.string().nullable(),
    type: z.literal("MESSAGE"),
    editedAt: isoTime.nullable(),
    deleted: z.boolean(),
    replyTo: z
      .strictObject({ id, authorId: id, messageText: z.string(), deleted: z.boolean(), imageCount: z.number().int().meta({ description: "Photos of the quoted message (0 when deleted)." }) })
      .nullable(),
    author: z.union([memberCard, z.null()]).optional().meta({ description: "In a group: the author's card (shown above their messages)." }),
    event: z.union([groupEvent, z.null()]).optional(),
    mentions: z.array(id).optional().meta({ description: "In a group: the members this message mentions; they are notified even when the conversation is muted." }),
  })
  .meta({
    id: "Message",
    example: { id: 9001, dialogId: 12, time: "2026-11-27T12:31:00.000Z", conversationPartner1: 42, conversationPartner2: 43, authorId: 42, recipientId: 43, messageText: "Привет! Как дела?", images: [], readStatus: "SENT", clientId: "0b6f4a86-2f8e-4c1e-a0f6-2f5d1b7c9e11", type: "MESSAGE", editedAt: null, deleted: false, replyTo: null },
  });

export const messageHidden = z.strictObject({ dialogId: id, messageId: id, accountId: id }).meta({ id: "MessageHidden" });

const partner = z
  .strictObject({ id, firstName: z.string(), lastName: z.string(), photo: z.string().nullable(), isOnline: z.boolean(), lastOnlineTime: isoTime.nullable(), isDeleted: z.boolean() })
  .meta({ id: "DialogPartner" });

export const dialogDto = z
  .strictObject({
    id,
    type: z.enum(["PERSONAL", "GROUP"]).meta({ description: "PERSONAL: one-to-one; GROUP: a conversation of up to 500 people." }),
    conversationPartner1: id.meta({ description: "The viewer's account id." }),
    conversationPartner2: id.nullable().meta({ description: "The other person's account id; null in a group conversation." }),
    viewer: partner,
    partner: z.union([partner, z.null()]).meta({ description: "The other person's card; null in a group conversation." }),
    title: z.string().nullable().meta({ description: "A group's title; null in a personal dialog." }),
    photo: z.string().nullable().meta({ description: "A group's photo; null when it has none (then `collage`) and in a personal dialog." }),
    membersCount: z.number().int(),
    role: groupRole.nullable().meta({ description: "The viewer's role in a group; null in a personal dialog and after leaving." }),
    left: z.boolean().meta({ description: "The viewer left the group or was removed: its history up to then stays readable, sending is refused (403)." }),
    mutedUntil: isoTime.nullable(),
    collage: z.array(memberCard).meta({ description: "A group without a photo: up to four members' cards for a collage." }),
    unreadCount: z.number().int(),
    unread_count: z.number().int().meta({ description: "The spec's other spelling of unreadCount." }),
    lastMessage: z
      .strictObject({
        id,
        messageText: z.string(),
        time: isoTime,
        authorId: id,
        readStatus,
        imageCount: z.number().int().meta({ description: "Photos of the last message: «Фотография» in the list when its text is empty." }),
        authorFirstName: z.string().nullable().optional().meta({ description: "In a group: the sender's first name." }),
        event: z.union([groupEvent, z.null()]).optional(),
      })
      .nullable(),
    canWrite: z.boolean(),
    messagesFriendsOnly: z.boolean(),
    createdAt: isoTime,
  })
  .meta({
    id: "Dialog",
    example: {
      id: 12, type: "PERSONAL", conversationPartner1: 42, conversationPartner2: 43,
      viewer: { id: 42, firstName: "Анна", lastName: "Смирнова", photo: null, isOnline: true, lastOnlineTime: "2026-11-27T12:30:00.000Z", isDeleted: false },
      partner: { id: 43, firstName: "Игорь", lastName: "Петров", photo: null, isOnline: false, lastOnlineTime: "2026-11-27T09:15:00.000Z", isDeleted: false },
      title: null, photo: null, membersCount: 2, role: null, left: false, mutedUntil: null, collage: [],
      unreadCount: 2, unread_count: 2, lastMessage: { id: 9001, messageText: "Привет! Как дела?", time: "2026-11-27T12:31:00.000Z", authorId: 43, readStatus: "SENT", imageCount: 0 },
      canWrite: true, messagesFriendsOnly: false, createdAt: "2026-11-20T18:00:00.000Z",
    },
  });

const groupMember = memberCard
  .extend({ role: groupRole, isOnline: z.boolean(), lastOnlineTime: isoTime.nullable(), isDeleted: z.boolean(), isFriend: z.boolean() })
  .meta({ id: "GroupMember" });

const GROUP = "Group conversations (issue 41): a present member only; anyone else, or a member who left → 404.";

const BLOCK = "A block either way: the dialog stays readable, sending is refused (403) and presence is hidden.";

export function registerDialogsApi(r: OpenAPIRegistry): void {
  const t = "Сообщения";
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs", tag: t, access: "user", query: dialogListQuery,
    summary: "My dialogs", description: "Paged; sort=unreadCount,desc (default) or time,desc.",
    ok: { 200: { description: "A page of dialogs.", schema: pageOf(dialogDto, "DialogPage") } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/dialogs", tag: t, access: "user", body: createDialogInput, errors: [404],
    bodyExample: { recipientId: 43 }, rateLimited: true,
    summary: "Open a dialog or create a group conversation",
    description: `{recipientId}: the dialog with that person, created when there is none. Oneself, unknown or deleted → 400/404; a person of another server takes no messages (403). ${BLOCK}\n\n{title, memberIds}: a new group conversation of the caller (its owner) and those people, at most 500 members; each must be a live person of this server the caller may write to (no block either way, their messagesFrom) — otherwise 403, an unknown id 422. RATE_LIMIT_GROUP_CREATE, and RATE_LIMIT_GROUP_ADD per person added.`,
    ok: { 200: { description: "The existing dialog.", schema: dialogDto }, 201: { description: "A new dialog.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs/unread", tag: t, access: "user", query: noDialogQuery,
    summary: "Unread messages", description: "Over all the viewer's dialogs.",
    ok: { 200: { description: "The count.", schema: countBody } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs/recipientId/{id}", tag: t, access: "user", params: dialogByRecipientParams,
    summary: "My dialog with a person", description: "404 while there is none (the client then creates it).",
    ok: { 200: { description: "The dialog.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs/{id}", tag: t, access: "user", params: dialogIdParams,
    summary: "A dialog", description: "Only one's own (anyone else's → 404).",
    ok: { 200: { description: "The dialog.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/dialogs/{id}", tag: t, access: "user", params: dialogIdParams,
    summary: "Mark a dialog read", description: "Resets the viewer's unread count; the partner's messages become READ. In a group a message is READ once any other member has read it.",
    ok: { 200: { description: "The dialog.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "patch", path: "/api/v1/dialogs/{id}", tag: t, access: "user", params: dialogIdParams, body: updateGroupInput, rateLimited: true,
    bodyExample: { title: "Дом на Садовой, 5" },
    summary: "Rename a group or change its photo", description: `The owner or an admin (others → 403). photo: one's own uploaded image, or null to remove it. Each change is an event line in the history. ${GROUP} RATE_LIMIT_GROUP_CHANGE.`,
    ok: { 200: { description: "The group.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs/{id}/members", tag: t, access: "user", params: dialogIdParams, query: memberListQuery,
    summary: "Members of a group", description: `The owner, the admins, then the caller's friends, then everyone else by name. ${GROUP}`,
    ok: { 200: { description: "A page of members.", schema: pageOf(groupMember, "GroupMemberPage") } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/dialogs/{id}/members", tag: t, access: "user", params: dialogIdParams, body: addMembersInput, rateLimited: true, errors: [409],
    bodyExample: { accountIds: [44, 45] },
    summary: "Add people to a group", description: `Any present member adds; as at creation, each must be a live person the caller may write to (403). Already a member → 409; past 500 → 422. They see the history from now on and get a GROUP_ADDED notification. ${GROUP} RATE_LIMIT_GROUP_ADD per person.`,
    ok: { 200: { description: "The group.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/dialogs/{id}/members/{accountId}", tag: t, access: "user", params: memberParams, rateLimited: true,
    summary: "Leave a group or remove someone", description: `Oneself: leave (an owner hands ownership to the longest-standing admin, else member). Someone else: the owner removes anyone, an admin removes members. Whoever leaves keeps the history up to then and gets nothing after. ${GROUP} RATE_LIMIT_GROUP_CHANGE.`,
    ok: { 200: { description: "The group as the caller now sees it.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/dialogs/{id}/members/{accountId}", tag: t, access: "user", params: memberParams, body: memberRoleInput, rateLimited: true,
    bodyExample: { role: "ADMIN" },
    summary: "Set a member's role", description: `The owner only: ADMIN or MEMBER, or OWNER to hand ownership on (the caller becomes an admin). ${GROUP} RATE_LIMIT_GROUP_CHANGE.`,
    ok: { 200: { description: "The member.", schema: groupMember } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/dialogs/{id}/mute", tag: t, access: "user", params: dialogIdParams, body: muteInput, rateLimited: true,
    bodyExample: { duration: "EIGHT_HOURS" },
    summary: "Mute a group", description: `For an hour, eight hours, until switched back on (FOREVER), or OFF. A muted group sends no push; a mention still notifies. ${GROUP} RATE_LIMIT_GROUP_CHANGE.`,
    ok: { 200: { description: "The group.", schema: dialogDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs/{id}/messages/{messageId}/readers", tag: t, access: "user", params: messageIdParams, query: readerListQuery,
    summary: "Who read my group message", description: "The author only (others → 403): members whose read point reached the message.",
    ok: { 200: { description: "A page of readers.", schema: pageOf(memberCard, "MessageReaderPage") } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/dialogs/messages", tag: t, access: "user", query: messageListQuery, errors: [404],
    summary: "Messages of a dialog", description: "dialogId or recipientId, page, size, sort=time,desc|asc, beforeId for older pages. Messages deleted for oneself are left out.",
    ok: { 200: { description: "A page of messages.", schema: pageOf(messageDto, "MessagePage") } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/dialogs/{id}/messages", tag: t, access: "user", params: dialogIdParams, body: sendMessageInput, rateLimited: true, errors: [404, 409],
    bodyExample: { messageText: "Привет! Как дела?", clientId: "0b6f4a86-2f8e-4c1e-a0f6-2f5d1b7c9e11" },
    summary: "Send a message",
    description: `Text up to the message limit and/or up to 10 stored photos; replyTo a message of the same dialog; a retry with the same clientId answers the stored message (200). The partner's messagesFrom may refuse (403). ${BLOCK} RATE_LIMIT_MESSAGE and a burst limit per account.`,
    ok: { 200: { description: "A retry: the stored message.", schema: messageDto }, 201: { description: "Sent.", schema: messageDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/dialogs/{id}/messages/{messageId}", tag: t, access: "user", params: messageIdParams, body: editMessageInput, rateLimited: true, errors: [409],
    bodyExample: { messageText: "Привет! Как твои дела?" },
    summary: "Edit a message", description: "Only its author, within 24 hours. RATE_LIMIT_MESSAGE_EDIT per account.",
    ok: { 200: { description: "The message after the change.", schema: messageDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/dialogs/{id}/messages/{messageId}", tag: t, access: "user", params: messageIdParams, query: deleteMessageQuery, rateLimited: true, errors: [409],
    summary: "Delete a message", description: "forEveryone=true: for both (its author, within 24 hours) — the message stays as «Сообщение удалено»; otherwise for oneself only.",
    ok: { 200: { description: "For both: the message; for oneself: which one was hidden.", schema: z.union([messageDto, messageHidden]) } },
  });
}
