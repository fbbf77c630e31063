/**
 * Background Sync of the chat's outbox (issue 44, docs/adr/0179): when the browser says the line is
 * back, the worker sends what lib/pwa/device/outbox.ts keeps, as the account that is signed in now, and
 * only that account's messages. A round that leaves something unsent fails, so the browser tries again.
 */
import { refreshSession } from "@/lib/client/auth-refresh";
import { flushOutbox, OUTBOX_SYNC_TAG, outboxRequest, outcomeOf, queuedMessages, unqueueMessage, type OutboxItem, type SendOutcome } from "@/lib/pwa/device/outbox";

type SyncEvent = ExtendableEvent & { tag: string; lastChance?: boolean };

/** A request to the API with the browser's cookies; a 401 refreshes the session once (one refresh at a time, as in a tab). */
async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const go = () => fetch(`/api/v1/${path}`, { ...init, credentials: "same-origin" });
  const res = await go();
  if (res.status !== 401) return res;
  return (await refreshSession()) === "ok" ? go() : res;
}

/** Who is signed in in this browser now, or null (nobody, or the line is down). */
async function currentAccountId(): Promise<number | null> {
  try {
    const res = await call("account/me");
    if (!res.ok) return null;
    const me = (await res.json()) as { id?: unknown };
    return typeof me.id === "number" ? me.id : null;
  } catch {
    return null;
  }
}

async function send(item: OutboxItem): Promise<SendOutcome> {
  const { path, body } = outboxRequest(item);
  const res = await call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return outcomeOf(res.status);
}

/** One round: the number of messages still waiting (0 when all went or nothing was there). */
export async function syncOutbox(): Promise<number> {
  const items = await queuedMessages();
  if (items.length === 0) return 0;
  const accountId = await currentAccountId();
  // Nobody signed in (or no line): nothing is sent and nothing dropped; signing in as someone else drops them.
  if (accountId === null) return items.length;
  return flushOutbox({ accountId, items, send, remove: unqueueMessage });
}

export function registerOutboxSync(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener("sync", ((event: SyncEvent) => {
    if (event.tag !== OUTBOX_SYNC_TAG) return;
    event.waitUntil(
      syncOutbox().then((left) => {
        // A rejected round is retried by the browser later (with backoff); the last chance just ends.
        if (left > 0 && !event.lastChance) throw new Error(`${left} queued messages wait for the line`);
      }),
    );
  }) as EventListener);
}
