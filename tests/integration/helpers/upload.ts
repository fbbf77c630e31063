import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import sharp from "sharp";

type Handler = (req: NextRequest, route: { params: Promise<Record<string, never>> }) => Promise<Response>;

export type UploadResult = { status: number; body: any; headers: Headers };

/** POSTs multipart/form-data with `file` (bytes, name, declared type) to an upload route. */
export async function upload(
  handler: Handler,
  opts: {
    token?: string;
    type?: string | null;
    bytes?: Uint8Array;
    filename?: string;
    contentType?: string;
    field?: string;
    path?: string;
  },
): Promise<UploadResult> {
  const form = new FormData();
  if (opts.bytes) {
    form.append(opts.field ?? "file", new Blob([opts.bytes as Uint8Array<ArrayBuffer>], { type: opts.contentType ?? "image/png" }), opts.filename ?? "photo.png");
  }
  const type = opts.type === null ? "" : `?type=${encodeURIComponent(opts.type ?? "IMAGE")}`;
  const headers = new Headers();
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  const req = new NextRequest(new URL(`${opts.path ?? "/api/v1/storage"}${type}`, "http://localhost:3000"), {
    method: "POST",
    headers,
    body: form,
  });
  return send(handler, req);
}

/** POSTs a raw body with the given headers (to lie about sizes, stream without a length, …). */
export async function uploadRaw(
  handler: Handler,
  opts: { token?: string; headers?: Record<string, string>; body: BodyInit; query?: string },
): Promise<UploadResult> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  const req = new NextRequest(new URL(`/api/v1/storage${opts.query ?? "?type=IMAGE"}`, "http://localhost:3000"), {
    method: "POST",
    headers,
    body: opts.body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  return send(handler, req);
}

async function send(handler: Handler, req: NextRequest): Promise<UploadResult> {
  const res = await handler(req, { params: Promise.resolve({} as Record<string, never>) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** GETs a stored file through the file route: status, headers and raw bytes. */
export async function fetchStored(
  handler: (req: NextRequest, route: { params: Promise<{ key: string }> }) => Promise<Response>,
  urlPath: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const key = decodeURIComponent(urlPath.split("/").pop() ?? "");
  const res = await handler(new NextRequest(new URL(urlPath, "http://localhost:3000")), { params: Promise.resolve({ key }) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every file under a directory (recursively); [] when it does not exist. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

/** A JPEG photo with EXIF (camera, GPS-like copyright text) and an orientation that turns it upright. */
export async function jpegWithExif(width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Copyright: "Secret Photographer", Make: "KrugCam", ImageDescription: "home 55.75N 37.61E" } })
    .toBuffer();
}

export async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 220 } } }).png().toBuffer();
}

/** A PNG of random pixels: incompressible, so its size follows its dimensions. */
export async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24 ^ (Math.random() * 256);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}
