import "server-only";
import { Readable } from "node:stream";
import { loginHref, matchRoute } from "@/lib/routes";

/** Where a signed-out browser following the mail's link goes: sign-in, then the settings with the download. */
export function signInFirst(): string {
  return loginHref(matchRoute("/settings")!);
}

/** A stored archive as a download: never cached by anyone, never shown inline. */
export function archiveResponse(file: { body: Readable | ReadableStream<Uint8Array>; size: number | undefined; fileName: string }): Response {
  const body = file.body instanceof Readable ? (Readable.toWeb(file.body) as ReadableStream<Uint8Array>) : file.body;
  const headers: Record<string, string> = {
    "content-type": "application/zip",
    "content-disposition": `attachment; filename="${file.fileName}"`,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
  if (file.size !== undefined) headers["content-length"] = String(file.size);
  return new Response(body, { headers });
}
