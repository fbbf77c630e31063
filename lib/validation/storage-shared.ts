// The zod-free half of lib/validation/storage.ts: the numbers the chat's composer needs on the dialog's
// first load (docs/adr/0134), without zod. lib/validation/storage.ts re-exports them.

/** Largest accepted upload (spec section 9: the image attribute is 3 MB). */
export const MAX_UPLOAD_BYTES = 3 * 1024 * 1024;
