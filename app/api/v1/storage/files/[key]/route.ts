// GET /api/v1/storage/files/{key} — a stored file, cacheable forever (keys are never reused)
import type { NextRequest } from "next/server";
import { NotFoundError } from "@/lib/server/http/errors";
import { requestIdOf } from "@/lib/server/http/request";
import { errorResponse } from "@/lib/server/http/with-auth";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { STORED_KEY_RE } from "@/lib/validation/storage";

// No viewer lookup: files are public by their unguessable key, like a CDN, and this route is hot.
export async function GET(req: NextRequest, { params }: { params: Promise<{ key: string }> }): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  try {
    const { key } = await params;
    // Only keys this server makes: no dots, slashes or encodings can reach the store.
    if (!STORED_KEY_RE.test(key)) throw new NotFoundError("uploadErrors.fileNotFound");
    const file = await getBlobStore().get(key);
    if (!file) throw new NotFoundError("uploadErrors.fileNotFound");
    const headers = new Headers({
      "content-type": file.contentType,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "x-request-id": requestId,
    });
    if (file.size !== undefined) headers.set("content-length", String(file.size));
    return new Response(file.body, { status: 200, headers });
  } catch (err) {
    const res = errorResponse(err, req, requestId);
    res.headers.set("cache-control", "no-store");
    res.headers.set("x-request-id", requestId);
    return res;
  }
}
