// The one share the share sheet brought (docs/adr/0179): kept by the service worker when it receives it,
// read by the share page, dropped when used or discarded, and at most SHARE_KEEP_MS old.
import { SHARE_KEEP_MS } from "@/lib/validation/share";
import { deviceStore } from "./idb";

export type StoredShare = { id: string; time: number; title: string; text: string; url: string; photos: File[] };

const SLOT = "current";
const store = deviceStore<StoredShare>("krug-share", "id");

/** Keeps a share in place of any earlier one. */
export async function keepShare(share: Omit<StoredShare, "id" | "time">, now = Date.now()): Promise<void> {
  await store.put({ ...share, id: SLOT, time: now });
}

/** The share waiting to be used, or null (none, or older than SHARE_KEEP_MS: dropped). */
export async function readShare(now = Date.now()): Promise<StoredShare | null> {
  const share = await store.get(SLOT);
  if (!share) return null;
  if (now - share.time > SHARE_KEEP_MS) {
    await store.delete(SLOT);
    return null;
  }
  return share;
}

export async function dropShare(): Promise<void> {
  await store.delete(SLOT);
}
