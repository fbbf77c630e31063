import "server-only";
import path from "node:path";
import type { Readable } from "node:stream";
import { env } from "@/lib/server/env";
import { createLocalStore } from "./local-store";
import { createS3Store, type S3StoreConfig } from "./s3-store";

/** A stored file as the file route streams it back. */
export type StoredObject = { body: ReadableStream<Uint8Array>; size: number | undefined; contentType: string };

/**
 * Where uploads live: the local disk under DATA_DIR/uploads, or an S3 bucket when S3_BUCKET is set
 * (any number of app instances then share one store). Keys are validated by the callers
 * (STORED_KEY_RE), never built from user input.
 */
export interface BlobStore {
  readonly kind: "local" | "s3";
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** Stores a stream of any length without holding it in memory (the data export's archives, docs/adr/0127); resolves with its bytes. */
  putStream(key: string, data: Readable, contentType: string): Promise<number>;
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

const globalForStore = globalThis as unknown as { __krugBlobStore?: { config: string; store: BlobStore } };

export function s3ConfigOf(e = env()): S3StoreConfig | null {
  if (!e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) return null;
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  };
}

/** The store of this process's settings, made once. */
export function getBlobStore(): BlobStore {
  const e = env();
  const s3 = s3ConfigOf(e);
  const config = s3 ? `s3:${s3.endpoint ?? "aws"}:${s3.bucket}` : `local:${e.DATA_DIR}`;
  const cached = globalForStore.__krugBlobStore;
  if (cached?.config === config) return cached.store;
  const store = s3 ? createS3Store(s3) : createLocalStore(path.join(e.DATA_DIR, "uploads"));
  globalForStore.__krugBlobStore = { config, store };
  return store;
}
