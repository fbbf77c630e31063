/**
 * Wipes what Krug keeps of an account on this device (docs/adr/0178): every Cache Storage cache whose name
 * starts with `krug-device-` and every IndexedDB database whose name starts with `krug-`. The build's
 * precache (Serwist's own caches, the same for everyone) and the push subscription are left alone.
 *
 * The same function runs in the worker (a response of another account, a sign-in, a sign-out seen by the
 * worker) and in the page (lib/client/api.ts's logout), so it only uses what both scopes have.
 */

export const DEVICE_CACHE_PREFIX = "krug-device-";
export const DEVICE_DATABASE_PREFIX = "krug-";
/**
 * What the phone's share sheet just handed to Krug (docs/adr/0179): the device user's, not an account's view,
 * kept at most a day. It outlives the wipes of a sign-in or of a page of no account or another account (a share
 * made signed out waits through the sign-in it leads to); only a sign-out takes it too.
 */
export const SHARE_DATABASE = "krug-share";

type DeviceScope = {
  caches?: Pick<CacheStorage, "keys" | "delete">;
  indexedDB?: Pick<IDBFactory, "deleteDatabase"> & { databases?: () => Promise<IDBDatabaseInfo[]> };
};

/**
 * A database is deleted once its last connection closes: a page that holds one open (the outbox) gets
 * `versionchange` and should close it. "blocked" therefore resolves too; the deletion stays queued.
 */
function deleteDatabase(factory: Pick<IDBFactory, "deleteDatabase">, name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
    request.onblocked = () => resolve();
  });
}

/**
 * Deletes the device's account data; never throws. Returns the names it deleted (caches, then databases).
 * `keepShare`: the share waiting in SHARE_DATABASE stays (every wipe but a sign-out's).
 */
export async function wipeDeviceData(scope: DeviceScope = globalThis as DeviceScope, { keepShare = false }: { keepShare?: boolean } = {}): Promise<string[]> {
  const deleted: string[] = [];
  const cacheNames = (await scope.caches?.keys().catch(() => [] as string[])) ?? [];
  for (const name of cacheNames.filter((n) => n.startsWith(DEVICE_CACHE_PREFIX))) {
    if (await scope.caches!.delete(name).catch(() => false)) deleted.push(name);
  }
  const factory = scope.indexedDB;
  const databases = (await factory?.databases?.().catch(() => [] as IDBDatabaseInfo[])) ?? [];
  for (const { name } of databases) {
    if (!name || !name.startsWith(DEVICE_DATABASE_PREFIX) || (keepShare && name === SHARE_DATABASE)) continue;
    await deleteDatabase(factory!, name);
    deleted.push(name);
  }
  return deleted;
}
