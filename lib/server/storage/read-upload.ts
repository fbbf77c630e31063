import "server-only";
import { BadRequestError, ServiceError } from "@/lib/server/http/errors";
import { MAX_UPLOAD_BYTES } from "@/lib/validation/storage";

// The multipart envelope (boundaries, part headers) around the file: generous, but bounded.
const MULTIPART_OVERHEAD = 64 * 1024;
const BODY_LIMIT = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;

const tooLarge = () => new ServiceError("payload_too_large", "uploadErrors.tooLarge");

/**
 * The bytes of the multipart field `file`, refused with 413 as early as possible: by the declared
 * Content-Length before reading anything, and again while reading (a body may lie about its length
 * or be chunked), and finally by the file's own size.
 */
export async function readUploadedFile(req: Request): Promise<Uint8Array> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(type)) {
    throw new ServiceError("unsupported_media_type", "uploadErrors.multipartExpected");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > BODY_LIMIT) throw tooLarge();
  const body = await readLimited(req, BODY_LIMIT);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new BadRequestError("uploadErrors.malformedMultipart");
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw new BadRequestError("uploadErrors.fileMissing");
  if (file.size > MAX_UPLOAD_BYTES) throw tooLarge();
  if (file.size === 0) throw new BadRequestError("uploadErrors.fileMissing");
  return new Uint8Array(await file.arrayBuffer());
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
