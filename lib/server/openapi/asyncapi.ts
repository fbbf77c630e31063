import "server-only";
// The socket protocol (ADR 0005, 0031, 0026) as an AsyncAPI 3 document and as a page of the reference
// (issue 29 §1, docs/adr/0138): every frame in both directions, its payload schema from lib/validation
// and an example. One list (FRAMES) makes both.
import { z } from "zod";
import { id, isoTime, personCard } from "@/lib/validation/api-common";
import { messageDto, messageHidden } from "@/lib/validation/dialogs-api";
import { clientMessageFrame, clientTypingFrame } from "@/lib/validation/dialogs";
import { notificationFrameData } from "@/lib/validation/more-api";
import { resumeMessage, SPEC_FRAME_TYPES, visibilityMessage } from "@/lib/validation/realtime";
import { API_VERSION } from "./document";
import { documentIn, textIn, type ReferenceLanguage } from "./language";

type Frame = { name: string; direction: "receive" | "send"; summary: string; payload: z.ZodType; example: unknown };

/** A received frame outside the specification's two reaches only a socket opened with frames=all (docs/adr/0165). */
const allOnly = (f: Frame) => f.direction === "receive" && !SPEC_FRAME_TYPES.includes(f.name);
const summaryOf = (f: Frame, lang: ReferenceLanguage) => (allOnly(f) ? `${textIn(lang, "With frames=all only.")} ${textIn(lang, f.summary)}` : textIn(lang, f.summary));

const event = <T extends z.ZodType>(type: string, data: T) => z.strictObject({ id: id.meta({ description: "The outbox id: resume after it." }), type: z.literal(type), data });
const live = <T extends z.ZodType>(type: string, data: T) => z.strictObject({ type: z.literal(type), data });

const messageExample = { id: 9001, dialogId: 12, time: "2026-11-27T12:31:00.000Z", conversationPartner1: 42, conversationPartner2: 43, authorId: 42, recipientId: 43, messageText: "Привет! Как дела?", images: [], readStatus: "SENT", clientId: null, type: "MESSAGE", editedAt: null, deleted: false, replyTo: null };
const friendData = z.strictObject({ authorId: id, receiverId: id, author: personCard, statusCode: z.string().nullable(), previousStatusCode: z.string().nullable() });
const friendExample = { authorId: 43, receiverId: 42, author: { id: 43, firstName: "Игорь", lastName: "Петров", photo: null }, statusCode: "REQUEST_FROM", previousStatusCode: null };

export const FRAMES: Frame[] = [
  { name: "READY", direction: "receive", summary: "After every (re)connect or RESUME, once the backlog is sent: resume from lastEventId from now on (also when lower than the client's own).", payload: z.strictObject({ type: z.literal("READY"), lastEventId: z.number().int() }), example: { type: "READY", lastEventId: 15230 } },
  { name: "MESSAGE", direction: "receive", summary: "A new chat message, to both partners (every tab), in a group to every present member: the message exactly as POST dialogs/{id}/messages answers it.", payload: event("MESSAGE", messageDto), example: { id: 15231, type: "MESSAGE", data: messageExample } },
  { name: "MESSAGE_UPDATED", direction: "receive", summary: "A message edited or deleted for both: the whole message as it is now.", payload: event("MESSAGE_UPDATED", messageDto), example: { id: 15232, type: "MESSAGE_UPDATED", data: { ...messageExample, messageText: "Привет! Как твои дела?", editedAt: "2026-11-27T12:33:00.000Z" } } },
  { name: "MESSAGE_HIDDEN", direction: "receive", summary: "A message deleted for oneself: to that account's tabs only.", payload: event("MESSAGE_HIDDEN", messageHidden), example: { id: 15233, type: "MESSAGE_HIDDEN", data: { dialogId: 12, messageId: 9001, accountId: 42 } } },
  { name: "DIALOG_CHANGED", direction: "receive", summary: "A group conversation changed (title, photo, members, roles, or the recipient's own membership or mute): read it again with GET dialogs/{id}. Also to a member the change removed.", payload: event("DIALOG_CHANGED", z.strictObject({ dialogId: id })), example: { id: 15241, type: "DIALOG_CHANGED", data: { dialogId: 12 } } },
  { name: "DIALOG_READ", direction: "receive", summary: "One partner marked the dialog read: the author's messages up to lastReadMessageId are READ. In a group (authorId null), to every present member: every message up to lastReadMessageId not written by readerId is READ.", payload: event("DIALOG_READ", z.strictObject({ dialogId: id, readerId: id, authorId: id.nullable(), lastReadMessageId: id, readAt: isoTime })), example: { id: 15234, type: "DIALOG_READ", data: { dialogId: 12, readerId: 43, authorId: 42, lastReadMessageId: 9001, readAt: "2026-11-27T12:34:00.000Z" } } },
  { name: "NOTIFICATION", direction: "receive", summary: "A notification, as GET notifications/page lists it, with timestamp (= sentTime, the spec's live field). Nothing is sent across a block.", payload: event("NOTIFICATION", notificationFrameData), example: { id: 15235, type: "NOTIFICATION", data: { id: 77, notificationType: "POST_COMMENT", sentTime: "2026-11-27T09:00:00.000Z", timestamp: "2026-11-27T09:00:00.000Z", content: "Какие виды! Завидую.", isRead: false, data: { id: 77, notificationType: "POST_COMMENT", content: "Какие виды! Завидую.", sentTime: "2026-11-27T09:00:00.000Z", authorId: 43, receiverId: 42, author: { id: 43, firstName: "Игорь", lastName: "Петров", photo: null }, postId: 101, commentId: 501, dialogId: null, count: 1, authors: [{ id: 43, firstName: "Игорь", lastName: "Петров", photo: null }] } } } },
  ...(["FRIEND_REQUEST", "FRIEND_APPROVE", "FRIEND_SUBSCRIBE", "FRIEND_BLOCKED", "FRIEND_UNBLOCKED", "FRIEND_REMOVED"] as const).map((type) => ({
    name: type, direction: "receive" as const, summary: `A relation changed (${type}): who acted and the recipient's side after the change.`, payload: event(type, friendData), example: { id: 15236, type, data: friendExample },
  })),
  { name: "REPORTS_CHANGED", direction: "receive", summary: "Staff only: the number of open reported targets changed.", payload: event("REPORTS_CHANGED", z.strictObject({ open: z.number().int() })), example: { id: 15240, type: "REPORTS_CHANGED", data: { open: 4 } } },
  { name: "TYPING", direction: "receive", summary: "Not stored, may be lost: the partner (in a group: a member, accountId) is typing in a dialog (show it for a few seconds).", payload: live("TYPING", z.strictObject({ dialogId: id, accountId: id })), example: { type: "TYPING", data: { dialogId: 12, accountId: 43 } } },
  { name: "PRESENCE", direction: "receive", summary: "Not stored: a partner of one of the viewer's dialogs came online or went offline (hidden across a block).", payload: live("PRESENCE", z.strictObject({ accountId: id, isOnline: z.boolean(), lastOnlineTime: isoTime.nullable() })), example: { type: "PRESENCE", data: { accountId: 43, isOnline: true, lastOnlineTime: "2026-11-27T12:35:00.000Z" } } },
  { name: "MESSAGE_REJECTED", direction: "receive", summary: "Only to the socket that sent a MESSAGE frame the server refused: the status and code POST would answer.", payload: live("MESSAGE_REJECTED", z.strictObject({ clientId: z.string().nullable(), dialogId: z.number().int().nullable(), recipientId: z.number().int().nullable(), status: z.number().int(), code: z.string(), messageKey: z.string() })), example: { type: "MESSAGE_REJECTED", data: { clientId: "0b6f4a86-2f8e-4c1e-a0f6-2f5d1b7c9e11", dialogId: 12, recipientId: null, status: 403, code: "forbidden", messageKey: "chatErrors.blocked" } } },
  { name: "WATCHING_POSTS", direction: "receive", summary: "The answer to WATCH_POSTS: the posts this socket now watches (at most 50).", payload: live("WATCHING_POSTS", z.strictObject({ postIds: z.array(id) })), example: { type: "WATCHING_POSTS", data: { postIds: [101, 102] } } },
  { name: "COMMENT_CHANGED", direction: "receive", summary: "A comment on a watched post was added, edited, deleted, recovered or (un)liked: ids only, refetch (nothing from a blocked author).", payload: live("COMMENT_CHANGED", z.strictObject({ postId: id, commentId: id, parentId: z.number().int().nullable(), change: z.enum(["added", "edited", "deleted", "recovered", "liked", "unliked"]) })), example: { type: "COMMENT_CHANGED", data: { postId: 101, commentId: 502, parentId: null, change: "added" } } },
  { name: "RESUME", direction: "send", summary: "Send again every event after lastEventId (at most 20 a minute); READY follows (with frames=all).", payload: resumeMessage, example: { type: "RESUME", lastEventId: 15230 } },
  { name: "VISIBILITY", direction: "send", summary: "Whether this tab is visible now (after each connect and on change); push skips accounts with a visible tab.", payload: visibilityMessage, example: { type: "VISIBILITY", visible: true } },
  { name: "MESSAGE_SEND", direction: "send", summary: "Send a chat message (type MESSAGE) as POST dialogs/{id}/messages would; success comes back as the MESSAGE event, a refusal as MESSAGE_REJECTED. At most 20 socket messages per 10 s.", payload: clientMessageFrame, example: { type: "MESSAGE", data: { dialogId: 12, messageText: "Привет! Как дела?", clientId: "0b6f4a86-2f8e-4c1e-a0f6-2f5d1b7c9e11" } } },
  { name: "TYPING_SEND", direction: "send", summary: "I am typing in this dialog (type TYPING; at most one a second; relayed to the partner only, never across a block).", payload: clientTypingFrame, example: { type: "TYPING", dialogId: 12 } },
  { name: "WATCH_POSTS", direction: "send", summary: "The posts this socket shows (replaces the previous list; at most 50 kept).", payload: z.strictObject({ type: z.literal("WATCH_POSTS"), postIds: z.array(id).max(200) }), example: { type: "WATCH_POSTS", postIds: [101, 102] } },
];

const jsonSchema = (s: z.ZodType) => z.toJSONSchema(s, { target: "draft-2020-12", io: "input", unrepresentable: "any", reused: "inline" });

const PROTOCOL = `One WebSocket per tab at /api/v1/streaming/ws (ADR 0005). The upgrade is authenticated like any call (Bearer or the access_token cookie; a cookie upgrade from another origin → 403); refusals are plain HTTP (401, 403, 400 for a malformed lastEventId or frames, 503 while shutting down). Without ?frames=all the socket is the specification's: it carries MESSAGE and NOTIFICATION only; ?frames=all (Krug's own client) adds every other frame below (READY, read receipts, presence, typing, live lists). ?lastEventId=N resumes either way: the account's events after N, then (with frames=all) READY, then live ones — none lost, none twice. Close codes: 1001 server restarting (reconnect and resume), 4001 session ended (refresh once, then sign in), 1011 the resume read failed, 1003 binary frame, 1009 frame over 4 KiB. Ping every 30 s.`;

/** The AsyncAPI document in one language (docs/adr/0167). */
export function buildAsyncApiDocument(lang: ReferenceLanguage = "en"): object {
  const messages: Record<string, object> = {};
  const operations: Record<string, object> = {};
  for (const f of FRAMES) {
    messages[f.name] = { name: f.name, title: f.name, summary: summaryOf(f, lang), contentType: "application/json", payload: jsonSchema(f.payload), examples: [{ name: f.name, payload: f.example }] };
    operations[`${f.direction}${f.name}`] = { action: f.direction, channel: { $ref: "#/channels/streaming" }, summary: summaryOf(f, lang), messages: [{ $ref: `#/channels/streaming/messages/${f.name}` }] };
  }
  return documentIn(lang, {
    asyncapi: "3.0.0",
    info: { title: "Krug live events", version: API_VERSION, description: PROTOCOL },
    defaultContentType: "application/json",
    servers: { krug: { host: "krug.example", protocol: "wss", pathname: "/api/v1/streaming/ws", security: [{ $ref: "#/components/securitySchemes/bearer" }, { $ref: "#/components/securitySchemes/cookie" }] } },
    channels: {
      streaming: {
        address: "/api/v1/streaming/ws",
        messages: Object.fromEntries(FRAMES.map((f) => [f.name, { $ref: `#/components/messages/${f.name}` }])),
        bindings: {
          ws: {
            query: {
              type: "object",
              properties: {
                lastEventId: { type: "integer", minimum: 0, description: "Resume after this outbox id." },
                frames: { type: "string", enum: ["all"], description: "all: every frame type. Absent: MESSAGE and NOTIFICATION only, as the specification's socket." },
              },
            },
          },
        },
      },
    },
    operations,
    components: {
      messages,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        cookie: { type: "httpApiKey", in: "cookie", name: "access_token" },
      },
    },
  });
}

/** The same frames as a page of the OpenAPI reference (a tag description, which Scalar shows as a section). */
export function socketReferenceMarkdown(lang: ReferenceLanguage): string {
  const way = (f: Frame) => textIn(lang, f.direction === "receive" ? "⬇ server → client" : "⬆ client → server");
  const block = (f: Frame) => `#### ${way(f)}: ${f.name}\n\n${summaryOf(f, lang)}\n\n\`\`\`json\n${JSON.stringify(f.example, null, 2)}\n\`\`\``;
  return `${textIn(lang, PROTOCOL)}\n\n${textIn(lang, "The schemas of every frame: GET /api/v1/asyncapi.json (AsyncAPI 3).")}\n\n${FRAMES.map(block).join("\n\n")}`;
}

const cached: Partial<Record<ReferenceLanguage, object>> = {};
export function asyncApiDocument(lang: ReferenceLanguage): object {
  return (cached[lang] ??= buildAsyncApiDocument(lang));
}
