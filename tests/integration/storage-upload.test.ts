import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as fileRoute } from "@/app/api/v1/storage/files/[key]/route";
import { POST as postPhotoRoute } from "@/app/api/v1/post/storagePostPhoto/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { MAX_IMAGE_SIDE } from "@/lib/server/storage/image";
import { MAX_UPLOAD_BYTES } from "@/lib/validation/storage";
import { signedInAccount } from "./helpers/factories";
import { fetchStored, filesUnder, jpegWithExif, noisePng, png, upload, uploadRaw } from "./helpers/upload";

// This file's own upload directory, so "nothing was written" can be checked by listing it. Settings
// are read on first use and every test file runs in a fresh module graph.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "krug-storage-test-"));
vi.stubEnv("DATA_DIR", dataDir);
vi.stubEnv("RATE_LIMIT_UPLOAD", "4/30m");
const uploadsDir = path.join(dataDir, "uploads");

let user: Awaited<ReturnType<typeof signedInAccount>>;
beforeAll(async () => {
  user = await signedInAccount();
});

/** Runs a refused upload and checks it stored nothing. */
async function expectRefused(run: () => Promise<{ status: number; body: any }>, status: number, code: string) {
  const before = filesUnder(uploadsDir).length;
  const res = await run();
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.requestId).toBeTruthy();
  expect(filesUnder(uploadsDir).length).toBe(before);
  return res;
}

describe("POST /api/v1/storage?type=IMAGE", () => {
  it("stores a photo as WebP without its metadata, upright, and serves it cacheable forever", async () => {
    const original = await jpegWithExif(300, 200);
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const res = await upload(storageRoute, { token: user.accessToken, bytes: original, filename: "me.jpg", contentType: "image/jpeg" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.stringMatching(/^\/api\/v1\/storage\/files\/[a-f0-9]{32}\.webp$/), fileName: res.body.data });
    expect(filesUnder(uploadsDir).map((f) => path.basename(f))).toContain(res.body.data.split("/").pop());

    const got = await fetchStored(fileRoute, res.body.data);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/webp");
    expect(got.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(got.bytes).metadata();
    expect(meta.format).toBe("webp");
    // EXIF orientation 6 means "turn 90°": the stored image is upright, 200 × 300.
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(got.bytes.includes("Secret Photographer")).toBe(false);
    expect(got.bytes.includes("KrugCam")).toBe(false);
  });

  it("scales a large image down to the long-side cap and keeps small ones as they are", async () => {
    const big = await upload(storageRoute, { token: user.accessToken, bytes: await png(3000, 1500) });
    expect(big.status).toBe(200);
    const bigMeta = await sharp((await fetchStored(fileRoute, big.body.data)).bytes).metadata();
    expect([bigMeta.width, bigMeta.height]).toEqual([MAX_IMAGE_SIDE, MAX_IMAGE_SIDE / 2]);

    const small = await upload(storageRoute, { token: user.accessToken, bytes: await png(64, 48) });
    const smallMeta = await sharp((await fetchStored(fileRoute, small.body.data)).bytes).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([64, 48]);
  });

  it("judges by content: text renamed .png with an image Content-Type is refused (415), nothing stored", async () => {
    const u = await signedInAccount();
    const text = new TextEncoder().encode("<?php echo 'not an image'; ?>\n".repeat(20));
    await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: text, filename: "evil.png", contentType: "image/png" }), 415, "unsupported_media_type");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: svg, filename: "a.svg", contentType: "image/svg+xml" }), 415, "unsupported_media_type");
    // A real JPEG header with the rest cut off.
    const truncated = (await jpegWithExif(400, 400)).subarray(0, 400);
    await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: truncated, filename: "cut.jpg" }), 415, "unsupported_media_type");
  });

  it("refuses an image over 3 MB with 413, by the file and by a lying or missing Content-Length", async () => {
    const u = await signedInAccount();
    const huge = await noisePng(1100, 1000);
    expect(huge.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect((await sharp(huge).metadata()).format).toBe("png");
    const res = await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: huge }), 413, "payload_too_large");
    expect(res.body.error.message).toBeTruthy();

    // Declared too big: refused before reading a byte.
    await expectRefused(
      () =>
        uploadRaw(storageRoute, {
          token: u.accessToken,
          headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(50 * 1024 * 1024) },
          body: "--x--",
        }),
      413,
      "payload_too_large",
    );

    // Streamed without a length: refused while reading, once the limit is passed.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 8 * 1024 * 1024) return controller.close();
        sent += 256 * 1024;
        controller.enqueue(new Uint8Array(256 * 1024));
      },
    });
    await expectRefused(
      () => uploadRaw(storageRoute, { token: u.accessToken, headers: { "content-type": "multipart/form-data; boundary=x" }, body: stream }),
      413,
      "payload_too_large",
    );
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });

  it("refuses decompression bombs (too many pixels) with 422", async () => {
    const u = await signedInAccount();
    const bomb = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "white" } }).png().toBuffer();
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: bomb }), 422, "validation_failed");
  });

  it("answers 400 for a type other than IMAGE or none, and for a missing file field", async () => {
    const u = await signedInAccount();
    const image = await png(10, 10);
    for (const type of ["VIDEO", "image", "", null]) {
      const res = await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: image, type }), 400, "bad_request");
      expect(res.body.error.message).toBe("Можно загружать только изображения (type=IMAGE)");
    }
    await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: image, field: "photo" }), 400, "bad_request");
    await expectRefused(() => upload(storageRoute, { token: u.accessToken }), 400, "bad_request");
  });

  it("wants multipart: JSON or garbage bodies get 415 or 400", async () => {
    const u = await signedInAccount();
    await expectRefused(
      () => uploadRaw(storageRoute, { token: u.accessToken, headers: { "content-type": "application/json" }, body: '{"file":"x"}' }),
      415,
      "unsupported_media_type",
    );
    await expectRefused(
      () => uploadRaw(storageRoute, { token: u.accessToken, headers: { "content-type": "multipart/form-data; boundary=zz" }, body: "garbage without parts" }),
      400,
      "bad_request",
    );
  });

  it("needs a signed-in viewer", async () => {
    await expectRefused(() => upload(storageRoute, { bytes: Buffer.from("x") }), 401, "unauthorized");
  });

  it("is rate limited per account (429 with Retry-After)", async () => {
    const u = await signedInAccount();
    const image = await png(8, 8);
    for (let i = 0; i < 4; i++) expect((await upload(storageRoute, { token: u.accessToken, bytes: image })).status).toBe(200);
    const limited = await expectRefused(() => upload(storageRoute, { token: u.accessToken, bytes: image }), 429, "rate_limited");
    expect(Number((limited as any).headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await signedInAccount();
    expect((await upload(storageRoute, { token: other.accessToken, bytes: image })).status).toBe(200);
  });
});

describe("POST /api/v1/post/storagePostPhoto?type=IMAGE", () => {
  it("stores post photos the same way", async () => {
    const u = await signedInAccount();
    const res = await upload(postPhotoRoute, { token: u.accessToken, bytes: await jpegWithExif(120, 80), path: "/api/v1/post/storagePostPhoto" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatch(/^\/api\/v1\/storage\/files\/[a-f0-9]{32}\.webp$/);
    // The original client of this contract reads the stored path from fileName.
    expect(res.body.fileName).toBe(res.body.data);
    const meta = await sharp((await fetchStored(fileRoute, res.body.data)).bytes).metadata();
    expect(meta.exif).toBeUndefined();
    const bad = await upload(postPhotoRoute, { token: u.accessToken, bytes: await png(4, 4), type: "FILE", path: "/api/v1/post/storagePostPhoto" });
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/v1/storage/files/{key}", () => {
  it("answers 404 for unknown keys and anything that is not a key (no path traversal)", async () => {
    for (const key of [
      "0123456789abcdef0123456789abcdef.webp",
      "../../../etc/passwd",
      "..%2F..%2Fauth-secret",
      "auth-secret",
      "0123456789ABCDEF0123456789ABCDEF.webp",
      "0123456789abcdef0123456789abcdef.webp/..",
      "",
    ]) {
      const res = await fileRoute(new (await import("next/server")).NextRequest("http://localhost:3000/api/v1/storage/files/x"), {
        params: Promise.resolve({ key }),
      });
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect((await res.json()).error.code).toBe("not_found");
    }
  });

  it("serves through the configured store (local disk here)", () => {
    expect(getBlobStore().kind).toBe("local");
  });
});
