import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { ZodError } from "zod";
import type { Db } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { toErrorBody } from "@/lib/server/http/errors";
import { assertMayWrite } from "@/lib/server/services/dialogs/access";
import { dialogPartnerIds } from "@/lib/server/services/dialogs/dialogs";
import { sendMessage, typingAudience } from "@/lib/server/services/dialogs/messages";
import {
  CHAT_ERRORS,
  clientMessageFrame,
  clientTypingFrame,
  type MessageRejectedFrame,
  type PresenceFrame,
  type TypingFrame,
} from "@/lib/validation/dialogs";
import type { Client, Hub, Logger } from "./hub";

/**
 * Postgres channel of the short-lived chat frames (TYPING, PRESENCE): not stored, may be lost, fanned
 * out to every sidecar like the outbox's NOTIFY so a partner connected to another instance gets them.
 * Payload: {"to": [accountId…], "frame": {...}} (NOTIFY payloads stay far below their 8000-byte limit).
 */
export const EPHEMERAL_CHANNEL = "krug_ephemeral";

// TYPING is repeated every few seconds by a client while typing; more often is dropped quietly.
const TYPING_MIN_GAP_MS = 1_000;
// A membership/block answer for TYPING is reused this long (a block lands within it at worst).
const TYPING_CHECK_TTL_MS = 15_000;
// Presence goes to the partners of at most this many most recent dialogs.
const PRESENCE_FANOUT_MAX = 500;

type ChatState = {
  lastTyping: number;
  typingChecks: Map<number, { recipients: number[] | null; at: number }>;
};

/**
 * The chat's part of the sidecar: client MESSAGE frames go to the same service verb as POST
 * dialogs/{id}/messages (the MESSAGE event then arrives through the outbox like any other), TYPING is
 * relayed to the partner only, and presence changes reach the partners of the account's dialogs.
 */
export class ChatRelay {
  private readonly state = new WeakMap<Client, ChatState>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly sql: postgres.Sql,
    private readonly hub: Hub,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const listener = await this.sql.listen(EPHEMERAL_CHANNEL, (payload) => this.deliver(payload));
    this.unlisten = listener.unlisten;
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch((err) => this.log.warn({ err }, "chat unlisten failed"));
  }

  private deliver(payload: string): void {
    let parsed: { to: number[]; frame: unknown };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (!Array.isArray(parsed.to) || typeof (parsed.frame as { type?: unknown } | null)?.type !== "string") return;
    const frame = parsed.frame as TypingFrame | PresenceFrame;
    const raw = JSON.stringify(frame);
    for (const accountId of parsed.to) this.hub.sendTransient(accountId, frame, raw);
  }

  private publish(to: number[], frame: TypingFrame | PresenceFrame): Promise<unknown> {
    return this.sql`select pg_notify(${EPHEMERAL_CHANNEL}, ${JSON.stringify({ to, frame })})`;
  }

  private stateOf(client: Client): ChatState {
    let s = this.state.get(client);
    if (!s) {
      s = { lastTyping: 0, typingChecks: new Map() };
      this.state.set(client, s);
    }
    return s;
  }

  /** Handles a chat frame from a client; false when the frame is not the chat's (RESUME, unknown). */
  handle(client: Client, viewer: Viewer, message: unknown): boolean {
    const type = (message as { type?: unknown } | null)?.type;
    if (type === "MESSAGE") {
      void this.onMessage(client, viewer, message);
      return true;
    }
    if (type === "TYPING") {
      void this.onTyping(client, message).catch((err) => this.log.warn({ err, accountId: client.accountId }, "typing relay failed"));
      return true;
    }
    return false;
  }

  private reject(client: Client, data: MessageRejectedFrame["data"]): void {
    const frame: MessageRejectedFrame = { type: "MESSAGE_REJECTED", data };
    this.hub.sendTransientTo(client, frame);
  }

  private async onMessage(client: Client, viewer: Viewer, message: unknown): Promise<void> {
    const raw = (message as { data?: Record<string, unknown> }).data ?? {};
    const echo = {
      clientId: typeof raw.clientId === "string" ? raw.clientId : null,
      dialogId: typeof raw.dialogId === "number" ? raw.dialogId : null,
      recipientId: typeof raw.recipientId === "number" ? raw.recipientId : null,
    };
    const requestId = randomUUID();
    try {
      const frame = clientMessageFrame.parse(message);
      // The viewer's id comes from the socket's session; the service re-reads everything else. It also
      // counts the account's message budget, shared with POST (ADR 0109): a refusal is a 429 below,
      // with the chat's own text.
      await sendMessage({ ctx: { viewer, db: this.db, requestId }, input: frame.data });
    } catch (err) {
      const out = toErrorBody(err, requestId);
      if (out.unexpected) this.log.error({ err, requestId, accountId: viewer.id }, "socket message failed");
      const key = err instanceof ZodError ? (err.issues[0]?.message ?? CHAT_ERRORS.badFrame) : out.body.error.message;
      this.reject(client, {
        ...echo,
        status: out.status,
        code: out.body.error.code,
        // The database away (503) is "not sent, try again", as an unexpected failure is; never "a bad frame".
        messageKey: key.startsWith("chatErrors.") ? key : out.unexpected || out.status === 503 ? CHAT_ERRORS.sendFailed : CHAT_ERRORS.badFrame,
      });
    }
  }

  private async onTyping(client: Client, message: unknown): Promise<void> {
    const parsed = clientTypingFrame.safeParse(message);
    if (!parsed.success) return;
    const s = this.stateOf(client);
    const now = Date.now();
    if (now - s.lastTyping < TYPING_MIN_GAP_MS) return;
    s.lastTyping = now;
    const dialogId = parsed.data.dialogId;
    let check = s.typingChecks.get(dialogId);
    if (!check || now - check.at > TYPING_CHECK_TTL_MS) {
      const audience = await typingAudience(this.db, client.accountId, dialogId);
      let recipients: number[] | null = audience?.members ?? null;
      if (audience?.partner != null) {
        // A block or a deleted account silences typing exactly as it refuses messages.
        const partnerId = audience.partner;
        recipients = await assertMayWrite(this.db, client.accountId, partnerId).then(
          () => [partnerId],
          () => null,
        );
      }
      check = { recipients, at: now };
      s.typingChecks.set(dialogId, check);
    }
    if (check.recipients === null || check.recipients.length === 0) return;
    const frame: TypingFrame = { type: "TYPING", data: { dialogId, accountId: client.accountId } };
    await this.publish(check.recipients, frame);
  }

  /** The account's first socket here opened, or its last one here closed: tell its dialog partners. */
  presenceChanged(accountId: number, isOnline: boolean): void {
    void (async () => {
      const partners = await dialogPartnerIds(this.db, accountId, PRESENCE_FANOUT_MAX);
      if (partners.length === 0) return;
      const frame: PresenceFrame = { type: "PRESENCE", data: { accountId, isOnline, lastOnlineTime: new Date().toISOString() } };
      await this.publish(partners, frame);
    })().catch((err) => this.log.warn({ err, accountId }, "presence relay failed"));
  }
}
