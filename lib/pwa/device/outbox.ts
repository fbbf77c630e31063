// The chat's outbox on the device (issue 44, docs/adr/0179): a message that could not leave (no network)
// is kept in IndexedDB `krug-outbox` with the account that wrote it, and sent by the service worker's
// Background Sync (lib/pwa/worker/outbox.ts) or, where the browser has none, when Krug opens again
// (components/chat/outbox-sender.tsx). Its clientId makes every send after the first answer the stored
// message: a message is never stored twice, however often it is tried.
import { deviceStore } from "./idb";

/** The Background Sync tag the worker listens for. */
export const OUTBOX_SYNC_TAG = "krug-outbox";
/** A message not sent within this time is dropped: said after two weeks, it would mislead. */
export const OUTBOX_KEEP_MS = 14 * 24 * 60 * 60 * 1000;

export type OutboxBody = { messageText: string; clientId: string; replyTo?: number; images?: string[]; mentions?: number[] };
export type OutboxItem = {
  clientId: string;
  accountId: number;
  dialogId: number;
  body: OutboxBody;
  savedAt: number;
  /** The quote the chat showed with it (a reply), shown again when the dialog opens before it is sent. */
  replyPreview?: unknown;
};

const store = deviceStore<OutboxItem>("krug-outbox", "clientId");

export const queueMessage = (item: OutboxItem) => store.put(item);
export const unqueueMessage = (clientId: string) => store.delete(clientId);
export const queuedMessages = () => store.all();

/** What one send came to: stored (or already stored), refused for good, or to be tried again later. */
export type SendOutcome = "sent" | "refused" | "retry";

/** A send's HTTP status as an outcome: 2xx stored; a line, server or limit trouble retried; any other refusal final. */
export function outcomeOf(status: number): SendOutcome {
  if (status >= 200 && status < 300) return "sent";
  if (status === 0 || status === 401 || status === 408 || status === 429 || status >= 500) return "retry";
  return "refused";
}

/**
 * Sends what the outbox holds for `accountId`, oldest first, each through `send`; an item of another
 * account (the browser is now someone else's) or older than OUTBOX_KEEP_MS is dropped unsent. Returns how
 * many are left to try again (the caller asks Background Sync for another round when that is not 0).
 */
export async function flushOutbox({
  accountId,
  items,
  send,
  remove,
  now = Date.now(),
}: {
  accountId: number;
  items: readonly OutboxItem[];
  send: (item: OutboxItem) => Promise<SendOutcome>;
  remove: (clientId: string) => Promise<void>;
  now?: number;
}): Promise<number> {
  let left = 0;
  for (const item of [...items].sort((a, b) => a.savedAt - b.savedAt)) {
    if (item.accountId !== accountId || now - item.savedAt > OUTBOX_KEEP_MS) {
      await remove(item.clientId);
      continue;
    }
    const outcome = await send(item).catch((): SendOutcome => "retry");
    if (outcome === "retry") left += 1;
    else await remove(item.clientId);
  }
  return left;
}

/** The POST that sends one queued message (the chat's own request: same path, same body, same clientId). */
export function outboxRequest(item: OutboxItem): { path: string; body: OutboxBody } {
  return { path: `dialogs/${item.dialogId}/messages`, body: item.body };
}
