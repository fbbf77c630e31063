import "server-only";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { Transform, type Readable } from "node:stream";
import type { BlobStore } from "./blob-store";
import { contentTypeOfKey } from "./content-type";

export type S3StoreConfig = {
  bucket: string;
  region: string;
  /** Set for S3-compatible servers (MinIO, Ceph, s3rver …); they are addressed path-style. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
};

// Uploads live under one prefix so the bucket can be shared with other data (the backup copies that prefix).
export const S3_MEDIA_PREFIX = "uploads/";
const PREFIX = S3_MEDIA_PREFIX;

export function isMissing(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata.httpStatusCode === 404)
  );
}

export function createS3Store(config: S3StoreConfig): BlobStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // Custom endpoints rarely have per-bucket DNS names; AWS itself uses virtual-hosted style.
    forcePathStyle: Boolean(config.endpoint),
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  });
  const Bucket = config.bucket;
  return {
    kind: "s3",
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: PREFIX + key,
          Body: data,
          ContentType: contentType,
          // Keys are never reused: a stored file never changes.
          CacheControl: "public, max-age=31536000, immutable",
        }),
      );
    },
    async putStream(key, data: Readable, contentType) {
      // A multipart upload of 5 MiB parts, one at a time: memory stays at about one part whatever the size.
      let bytes = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      data.on("error", (err) => counted.destroy(err));
      data.pipe(counted);
      const upload = new Upload({
        client,
        params: { Bucket, Key: PREFIX + key, Body: counted, ContentType: contentType, CacheControl: "private, no-store" },
        queueSize: 1,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      });
      await upload.done();
      return bytes;
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: PREFIX + key }));
        if (!out.Body) return null;
        return {
          body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          size: out.ContentLength,
          contentType: out.ContentType ?? contentTypeOfKey(key),
        };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: PREFIX + key }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: PREFIX + key }));
    },
  };
}
