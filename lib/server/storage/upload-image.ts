import "server-only";
import { randomBytes } from "node:crypto";
import { uploads } from "@/db/schema/uploads";
import { BadRequestError, ForbiddenError } from "@/lib/server/http/errors";
import { consumeUploadLimit } from "@/lib/server/http/rate-limit";
import { log } from "@/lib/server/log";
import { requireViewer, type ServiceCtx } from "@/lib/server/services/context";
import { storedPathOf, uploadQuery } from "@/lib/validation/storage";
import { getBlobStore } from "./blob-store";
import { reencodeImage } from "./image";

/** What an upload is for; both are stored alike, the purpose only shows in the logs. */
export type UploadPurpose = "account" | "post";

/**
 * Stores an uploaded image (POST /storage and /post/storagePostPhoto) and returns the URL path it is
 * served at. Nothing is written unless the bytes are a real image within the limits.
 */
export async function uploadImage({
  ctx,
  input,
  readFile,
  purpose,
}: {
  ctx: ServiceCtx;
  input: unknown;
  /** Reads the file only after the cheap checks passed, so a refused request costs no upload. */
  readFile: () => Promise<Uint8Array>;
  purpose: UploadPurpose;
}): Promise<{ path: string; width: number; height: number }> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const query = uploadQuery.safeParse(input);
  if (!query.success) throw new BadRequestError("uploadErrors.typeNotImage");
  await consumeUploadLimit(viewer.id);
  const bytes = await readFile();
  const image = await reencodeImage(bytes);
  const key = `${randomBytes(16).toString("hex")}.webp`;
  await getBlobStore().put(key, image.data, "image/webp");
  // Who stored it: a message attaches only its sender's own uploads (docs/adr/0161). Written after the
  // file, so a row never names a file that is not there; a failure here leaves an orphan file, as before.
  await (ctx.tx ?? ctx.db).insert(uploads).values({ key, accountId: viewer.id });
  log.info({ requestId: ctx.requestId, accountId: viewer.id, key, purpose, bytes: image.data.length }, "image stored");
  return { path: storedPathOf(key), width: image.width, height: image.height };
}
