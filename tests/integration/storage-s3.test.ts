import path from "node:path";
import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as meRoute } from "@/app/api/v1/account/me/route";
import { GET as fileRoute } from "@/app/api/v1/storage/files/[key]/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { startS3 } from "./helpers/s3";
import { fetchStored, filesUnder, jpegWithExif, upload } from "./helpers/upload";

// A real S3-compatible server (s3rver) in this process; the app reaches it through S3_* settings,
// exactly as it would reach AWS, MinIO or Ceph.
const BUCKET = "krug-test";
let bucket: Awaited<ReturnType<typeof startS3>>;
let s3: S3Client;
let dataDir: string;
let user: Awaited<ReturnType<typeof signedInAccount>>;

beforeAll(async () => {
  bucket = await startS3(BUCKET);
  ({ s3, dataDir } = bucket);
  user = await signedInAccount();
});

afterAll(async () => {
  await bucket?.stop();
});

const bucketKeys = () => bucket.keys();

describe("uploads on S3 (S3_* set)", () => {
  it("uses the S3 store", () => {
    expect(getBlobStore().kind).toBe("s3");
  });

  it("puts the re-encoded image in the bucket, not on local disk, and serves it from there", async () => {
    const res = await upload(storageRoute, { token: user.accessToken, bytes: await jpegWithExif(240, 160) });
    expect(res.status).toBe(200);
    const key = res.body.data.split("/").pop();
    expect(await bucketKeys()).toContain(`uploads/${key}`);
    expect(filesUnder(path.join(dataDir, "uploads"))).toEqual([]);

    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `uploads/${key}` }));
    expect(object.ContentType).toBe("image/webp");
    expect(object.CacheControl).toBe("public, max-age=31536000, immutable");

    const served = await fetchStored(fileRoute, res.body.data);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(served.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["webp", 160, 240, undefined]);
  });

  it("stores nothing for a refused upload and answers 404 for a key the bucket lacks", async () => {
    const before = await bucketKeys();
    const bad = await upload(storageRoute, { token: user.accessToken, bytes: new TextEncoder().encode("plain text, not a picture"), filename: "x.png" });
    expect(bad.status).toBe(415);
    expect(await bucketKeys()).toEqual(before);
    expect((await fetchStored(fileRoute, "/api/v1/storage/files/ffffffffffffffffffffffffffffffff.webp")).status).toBe(404);
  });

  it("accepts a stored S3 path as the profile photo and refuses a path the bucket lacks", async () => {
    const res = await upload(storageRoute, { token: user.accessToken, bytes: await jpegWithExif(50, 50) });
    const ok = await call(meRoute, { method: "PUT", token: user.accessToken, body: { photo: res.body.data } });
    expect(ok.status).toBe(200);
    expect(ok.body.photo).toBe(res.body.data);
    const missing = await call(meRoute, {
      method: "PUT",
      token: user.accessToken,
      body: { profileCover: "/api/v1/storage/files/00000000000000000000000000000000.webp" },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error.issues[0].path).toBe("profileCover");
  });
});
