import "server-only";
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { log } from "@/lib/server/log";
import { publicAddressesOf, systemResolve, type Resolve } from "@/lib/server/services/push/endpoint-address";
import { pinnedLookup } from "@/lib/server/services/push/send";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { reencodeImage } from "@/lib/server/storage/image";
import { storedPathOf } from "@/lib/validation/storage";

/**
 * Remote media (issue 43, docs/adr/0174): a remote person's avatar and a Note's image are fetched once,
 * checked and stored by the image pipeline as any upload (re-encoded, metadata dropped, at most 2048 px),
 * and served from here — never hotlinked, so a reader's browser never calls another server. The fetch
 * resolves the host itself and connects only to public addresses (no private, loopback or link-local one,
 * unless the instance allows private addresses for tests), follows no redirect, reads at most 8 MiB and
 * gives up after 10 s.
 */

export const REMOTE_MEDIA_MAX_BYTES = 8 * 1024 * 1024;
export const REMOTE_MEDIA_TIMEOUT_MS = 10_000;

export type MediaFetchOptions = { allowPrivate: boolean; resolve?: Resolve; timeoutMs?: number };

/** The bytes at `url` (http(s), a public address), or null for anything else: refused, too big, slow, not 200. */
export async function fetchRemoteBytes(url: string, options: MediaFetchOptions): Promise<Uint8Array | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return null;
  const signal = AbortSignal.timeout(options.timeoutMs ?? REMOTE_MEDIA_TIMEOUT_MS);
  try {
    const { addresses } = await publicAddressesOf(target.href, options.resolve ?? systemResolve, options.allowPrivate);
    const request = target.protocol === "https:" ? httpsRequest : httpRequest;
    return await new Promise<Uint8Array | null>((done, fail) => {
      const outgoing = request(target, { method: "GET", lookup: pinnedLookup(addresses), agent: false, signal, headers: { accept: "image/*" } }, (res) => {
        const declared = Number(res.headers["content-length"] ?? 0);
        if (res.statusCode !== 200 || declared > REMOTE_MEDIA_MAX_BYTES) {
          res.destroy();
          done(null);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > REMOTE_MEDIA_MAX_BYTES) {
            res.destroy();
            done(null);
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => done(new Uint8Array(Buffer.concat(chunks))));
        res.on("error", fail);
      });
      outgoing.on("error", fail);
      outgoing.end();
    });
  } catch (err) {
    log.info({ err, url: target.href.slice(0, 200) }, "fediverse: media not fetched");
    return null;
  }
}

/** A remote image stored as an upload of `accountId` (the remote person's): its URL path here, or null. */
export async function importRemoteImage(db: DbOrTx, accountId: number, url: string | null | undefined, options: MediaFetchOptions): Promise<string | null> {
  if (!url || url.length > 2048) return null;
  const bytes = await fetchRemoteBytes(url, options);
  if (!bytes) return null;
  let image;
  try {
    image = await reencodeImage(bytes);
  } catch {
    return null; // not an image, or one the pipeline refuses
  }
  const key = `${randomBytes(16).toString("hex")}.webp`;
  await getBlobStore().put(key, image.data, "image/webp");
  await db.execute(sql`insert into uploads (key, account_id) values (${key}, ${accountId})`);
  return storedPathOf(key);
}
