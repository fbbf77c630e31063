/** The Content-Type a stored file is served with, from the extension its key carries. */
export function contentTypeOfKey(key: string): string {
  return key.endsWith(".webp") ? "image/webp" : "application/octet-stream";
}
