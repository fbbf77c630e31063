"use client";
/**
 * The page's side of the chat outbox (docs/adr/0179): a message that could not leave is kept on the
 * device (lib/pwa/device/outbox.ts) and Background Sync is asked to send it; where the browser has no
 * Background Sync (or the worker is not there), sendQueued() sends it when Krug opens again or the line
 * comes back. Storage trouble never breaks the chat: the in-page retry still holds the message.
 */
import { api, ApiError } from "@/lib/client/api";
import { hasDeviceStorage } from "@/lib/pwa/device/idb";
import { flushOutbox, OUTBOX_SYNC_TAG, outboxRequest, outcomeOf, queuedMessages, queueMessage, unqueueMessage, type OutboxItem, type SendOutcome } from "@/lib/pwa/device/outbox";

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

async function askForSync(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const registration = (await navigator.serviceWorker.getRegistration()) as SyncRegistration | undefined;
  await registration?.sync?.register(OUTBOX_SYNC_TAG);
}

/** Keeps an unsent message on the device and asks for a Background Sync round. */
export async function keepUnsent(item: OutboxItem): Promise<void> {
  if (!hasDeviceStorage()) return;
  try {
    await queueMessage(item);
    await askForSync();
  } catch (err) {
    console.error("keeping the unsent message failed", err);
  }
}

/** Forgets a message the server has now (sent from the page, or answered with the stored one). */
export function forgetSent(clientId: string): void {
  if (hasDeviceStorage()) unqueueMessage(clientId).catch(() => {});
}

/** The account's messages still waiting, of one dialog. */
export async function unsentIn(accountId: number, dialogId: number): Promise<OutboxItem[]> {
  if (!hasDeviceStorage()) return [];
  const items = await queuedMessages().catch(() => []);
  return items.filter((i) => i.accountId === accountId && i.dialogId === dialogId).sort((a, b) => a.savedAt - b.savedAt);
}

let sending: Promise<void> | null = null;

/** Sends what waits for the signed-in account (this page's viewer); another account's messages are dropped. */
export function sendQueued(accountId: number): Promise<void> {
  if (!hasDeviceStorage()) return Promise.resolve();
  sending ??= (async () => {
    try {
      const items = await queuedMessages();
      const send = async (item: OutboxItem): Promise<SendOutcome> => {
        const { path, body } = outboxRequest(item);
        try {
          await api(path, { method: "POST", body });
          return "sent";
        } catch (err) {
          return outcomeOf(err instanceof ApiError ? err.status : 0);
        }
      };
      const left = await flushOutbox({ accountId, items, send, remove: unqueueMessage });
      if (left > 0) await askForSync().catch(() => {});
    } catch (err) {
      console.error("sending the queued messages failed", err);
    } finally {
      sending = null;
    }
  })();
  return sending;
}
