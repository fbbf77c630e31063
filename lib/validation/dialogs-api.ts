// The reference of dialogs/* (issue 29, docs/adr/0138). Requests: lib/validation/dialogs.ts; answers:
// strict objects shaped like MessageDto and DialogDto (ids in conversationPartner1/2, cards beside them).
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { countBody, id, isoTime, pageOf, registerOperation } from "./api-common";
import {
  createDialogInput,
  deleteMessageQuery,
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

export const messageDto = z
  .strictObject({
    id,
    dialogId: id,
    time: isoTime,
    conversationPartner1: id.meta({ description: "The author's account id." }),
    conversationPartner2: id.meta({ description: "The recipient's account id." }),
    authorId: id,
    recipientId: id,
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
    conversationPartner1: id.meta({ description: "The viewer's account id." }),
    conversationPartner2: id.meta({ description: "The other person's account id." }),
    viewer: partner,
    partner,
    unreadCount: z.number().int(),
    unread_count: z.number().int().meta({ description: "The spec's other spelling of unreadCount." }),
    lastMessage: z.strictObject({ id, messageText: z.string(), time: isoTime, authorId: id, readStatus, imageCount: z.number().int().meta({ description: "Photos of the last message: «Фотография» in the list when its text is empty." }) }).nullable(),
    canWrite: z.boolean(),
    messagesFriendsOnly: z.boolean(),
    createdAt: isoTime,
  })
  .meta({
    id: "Dialog",
    example: {
      id: 12, conversationPartner1: 42, conversationPartner2: 43,
      viewer: { id: 42, firstName: "Анна", lastName: "Смирнова", photo: null, isOnline: true, lastOnlineTime: "2026-11-27T12:30:00.000Z", isDeleted: false },
      partner: { id: 43, firstName: "Игорь", lastName: "Петров", photo: null, isOnline: false, lastOnlineTime: "2026-11-27T09:15:00.000Z", isDeleted: false },
      unreadCount: 2, unread_count: 2, lastMessage: { id: 9001, messageText: "Привет! Как дела?", time: "2026-11-27T12:31:00.000Z", authorId: 43, readStatus: "SENT", imageCount: 0 },
      canWrite: true, messagesFriendsOnly: false, createdAt: "2026-11-20T18:00:00.000Z",
    },
  });

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
    bodyExample: { recipientId: 43 },
    summary: "Open a dialog", description: `The dialog with that person, created when there is none. Oneself, unknown or deleted → 400/404. ${BLOCK}`,
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
    summary: "Mark a dialog read", description: "Resets the viewer's unread count; the partner's messages become READ.",
    ok: { 200: { description: "The dialog.", schema: dialogDto } },
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
