// A few promise helpers over IndexedDB for Krug's device stores (docs/adr/0179): the shared share, the
// chat's outbox and the drafts of posts and comments. Each database is named `krug-…`, so wiping the
// device (lib/pwa/worker/wipe.ts) takes them with the rest. Runs in a page and in the service worker.

export type StoreName = string;

/** Opens `name` with one object store of the same name keyed by `key`, made on first use. */
export function openStore(name: string, key: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name, { keyPath: key });
    };
    request.onsuccess = () => {
      const db = request.result;
      // A wipe deletes the database: this connection must not hold it up.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`${name} is blocked`));
  });
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** One transaction on the store, closed after; the answer of `run`. */
export async function withStore<T>(name: string, key: string, mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openStore(name, key);
  try {
    const tx = db.transaction(name, mode);
    const result = await done(run(tx.objectStore(name)));
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  } finally {
    db.close();
  }
}

/** A small typed store: every row has the key field `key`. */
export function deviceStore<T extends object>(name: `krug-${string}`, key: keyof T & string) {
  return {
    all: () => withStore(name, key, "readonly", (s) => s.getAll() as IDBRequest<T[]>),
    get: (id: IDBValidKey) => withStore(name, key, "readonly", (s) => s.get(id) as IDBRequest<T | undefined>),
    put: (row: T) => withStore(name, key, "readwrite", (s) => s.put(row)).then(() => undefined),
    delete: (id: IDBValidKey) => withStore(name, key, "readwrite", (s) => s.delete(id)).then(() => undefined),
    clear: () => withStore(name, key, "readwrite", (s) => s.clear()).then(() => undefined),
  };
}

/** Whether this browser has IndexedDB at all (a private window of some browsers has none). */
export function hasDeviceStorage(): boolean {
  return typeof indexedDB !== "undefined";
}
