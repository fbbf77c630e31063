import "server-only";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { ListObjectsCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";

// The S3 basics both an s3:// backup destination (remote.ts) and the media bucket (media.ts) use: an
// address with its client, and a listing that works on every S3 server.

export type S3Credentials = { region: string; endpoint?: string; accessKeyId: string; secretAccessKey: string };
export type S3Destination = { client: S3Client; bucket: string; prefix: string; url: string };
export type ListedObject = { Key?: string; LastModified?: Date; Size?: number; ETag?: string };

export function isS3Url(value: string): boolean {
  return /^s3:\/\//i.test(value);
}

/** s3://bucket/some/prefix with the media store's credentials (S3_*), or others given. */
export function s3Destination(url: string, credentials: S3Credentials | null): S3Destination {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/i.exec(url.trim());
  if (!m) throw new Error(`${url} is not an s3://bucket/prefix address`);
  if (!credentials) throw new Error("an s3:// destination needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT for a server other than AWS)");
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "");
  const client = new S3Client({
    region: credentials.region,
    endpoint: credentials.endpoint,
    forcePathStyle: Boolean(credentials.endpoint),
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
  });
  return { client, bucket: m[1], prefix: prefix ? `${prefix}/` : "", url };
}

/**
 * Every object under `prefix + sub`, page by page, with ListObjects (version 1: every S3 server has it) and
 * the last key seen as the next page's marker. s3rver answers a truncated ListObjectsV2 with an internal error.
 */
export async function listObjects(d: S3Destination, sub: string): Promise<ListedObject[]> {
  const out: ListedObject[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await d.client.send(new ListObjectsCommand({ Bucket: d.bucket, Prefix: d.prefix + sub, Marker: after })).catch((err: Error) => {
      throw new Error(`listing ${d.url}/${sub}: ${err.message}`);
    });
    const contents = (page.Contents ?? []).filter((o) => o.Key);
    out.push(...contents);
    if (!page.IsTruncated || contents.length === 0) return out;
    after = contents[contents.length - 1].Key;
  }
}

/** One file as one object (multipart beyond 5 MB, streamed, never held in memory), its mtime in the metadata. */
export async function put(d: S3Destination, rel: string, file: string, contentType?: string): Promise<void> {
  const s = await stat(file);
  await new Upload({
    client: d.client,
    params: { Bucket: d.bucket, Key: d.prefix + rel, Body: createReadStream(file), ContentType: contentType, Metadata: { mtime: String(Math.round(s.mtimeMs)) } },
  })
    .done()
    .catch((err: Error) => {
      throw new Error(`uploading ${rel} to ${d.url}: ${err.message}`);
    });
}
