import { z } from "zod";

// Shared by the upload routes, the file route, account and post validation, and the client.

/** Largest accepted upload (spec section 9: the image attribute is 3 MB); zod-free in ./storage-shared. */
export { MAX_UPLOAD_BYTES } from "./storage-shared";

/** URL path under which stored files are served; the upload answer is this path plus the key. */
export const STORED_FILES_BASE = "/api/v1/storage/files/";

/** Keys are random (128 bits, hex) with the extension of the stored format: nothing user-chosen. */
export const STORED_KEY_RE = /^[a-f0-9]{32}\.webp$/;

const STORED_PATH_RE = /^\/api\/v1\/storage\/files\/([a-f0-9]{32}\.webp)$/;

/** The storage key of a path this server handed out, or null for anything else. */
export function storedKeyOf(path: string): string | null {
  return STORED_PATH_RE.exec(path)?.[1] ?? null;
}

export function storedPathOf(key: string): string {
  return STORED_FILES_BASE + key;
}

/** A path this server stored (photo, cover, post image); the services also check the file exists. */
export const storedPathSchema = z
  .string()
  .max(200, "uploadErrors.notStoredPath")
  .refine((v) => storedKeyOf(v) !== null, "uploadErrors.notStoredPath");

/** `?type=IMAGE` of POST /storage and /post/storagePostPhoto: the only kind of upload there is. */
export const uploadQuery = z.object({
  type: z.literal("IMAGE", { error: "uploadErrors.typeNotImage" }),
});
