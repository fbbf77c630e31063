import "server-only";
import { randomBytes } from "node:crypto";
import { NotFoundError } from "@/lib/server/http/errors";
import { log } from "@/lib/server/log";
import { getBlobStore, type StoredObject } from "@/lib/server/storage/blob-store";
import { ADMIN_ERRORS } from "@/lib/validation/admin";
import { REPORT_FILE_KEY_RE, REPORT_FILES_BASE, reportFileKeyOf, type ReportSnapshot } from "@/lib/validation/reports";
import { storedKeyOf } from "@/lib/validation/storage";
import type { ServiceCtx } from "../context";
import { requireStaff } from "../admin/access";

// The photos of a reported item, kept with the report (issue 40 item 8, docs/adr/0164): copied through the
// blob store (local disk or S3) under report-owned keys, so neither deleting the message or post nor
// deleting its stored files takes the evidence away; served to staff only.

/** Copies one stored image (a path this server handed out) to a fresh report key; null when it is gone already. */
async function copyOne(path: string): Promise<string | null> {
  const key = storedKeyOf(path);
  if (!key) return null;
  const store = getBlobStore();
  const file = await store.get(key);
  if (!file) return null;
  const copy = `report-${randomBytes(16).toString("hex")}.webp`;
  await store.put(copy, new Uint8Array(await new Response(file.body).arrayBuffer()), file.contentType);
  return REPORT_FILES_BASE + copy;
}

async function copyAll(paths: string[] | undefined, made: string[]): Promise<string[]> {
  const copies = await Promise.all((paths ?? []).map(copyOne));
  const kept = copies.filter((c): c is string => c !== null);
  made.push(...kept);
  return kept;
}

/**
 * The snapshot with its photos replaced by kept copies (in parallel: at most ten, the reported message's),
 * and the copies made, for `dropEvidence` if the report is not stored after all.
 */
export async function keepEvidence(snapshot: ReportSnapshot): Promise<{ snapshot: ReportSnapshot; copies: string[] }> {
  const made: string[] = [];
  try {
    if (snapshot.kind === "POST" || snapshot.kind === "ACCOUNT" || snapshot.kind === "COMMUNITY") {
      return { snapshot: { ...snapshot, images: await copyAll(snapshot.images, made) }, copies: made };
    }
    if (snapshot.kind === "MESSAGE") {
      const messages = await Promise.all(
        snapshot.messages.map(async (m) => (m.reported ? { ...m, images: await copyAll(m.images, made) } : m)),
      );
      return { snapshot: { ...snapshot, messages }, copies: made };
    }
    return { snapshot, copies: made };
  } catch (err) {
    await dropEvidence(made);
    throw err;
  }
}

/** Deletes copies whose report was not stored (a refusal or a failure after copying); a failure is only logged. */
export async function dropEvidence(copies: string[]): Promise<void> {
  const store = getBlobStore();
  await Promise.all(
    copies.map(async (path) => {
      const key = reportFileKeyOf(path);
      if (key) await store.delete(key).catch((err: unknown) => log.warn({ err, key }, "could not delete a report's unused photo copy"));
    }),
  );
}

/**
 * GET admin/reports/files/{key} — a photo kept with a report: staff only (anonymous 401, others 403), a key of
 * any other shape or a missing file 404. The key is unguessable and only a queue row names it.
 */
export async function openReportFile({ ctx, input }: { ctx: ServiceCtx; input: { key: string } }): Promise<StoredObject> {
  requireStaff(ctx);
  if (!REPORT_FILE_KEY_RE.test(input.key)) throw new NotFoundError(ADMIN_ERRORS.notFound);
  const file = await getBlobStore().get(input.key);
  if (!file) throw new NotFoundError(ADMIN_ERRORS.notFound);
  return file;
}
