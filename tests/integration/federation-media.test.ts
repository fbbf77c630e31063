// Remote media are hostile (issue 43): the fetch refuses private addresses, redirects, oversized and slow
// answers, and the image pipeline refuses what is not an image; nothing is stored then.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { fetchRemoteBytes, importRemoteImage, REMOTE_MEDIA_MAX_BYTES } from "@/lib/server/federation/media";
import { createTestAccount } from "./helpers/factories";

let server: Server;
let base: string;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 90, b: 200 } } }).png().toBuffer();
  server = createServer((req, res) => {
    if (req.url === "/ok.png") return void res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (req.url === "/text") return void res.writeHead(200, { "content-type": "image/png" }).end("<svg onload=alert(1)>");
    if (req.url === "/redirect") return void res.writeHead(302, { location: "/ok.png" }).end();
    if (req.url === "/huge") {
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const push = () => {
        while (sent < REMOTE_MEDIA_MAX_BYTES + 2 * chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", push);
        }
        res.end();
      };
      return void push();
    }
    if (req.url === "/slow") return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("remote media", () => {
  it("fetches an image from an allowed address", async () => {
    expect(Buffer.from((await fetchRemoteBytes(`${base}/ok.png`, { allowPrivate: true }))!)).toEqual(png);
  });

  it("refuses a loopback address unless private addresses are allowed (tests only)", async () => {
    expect(await fetchRemoteBytes(`${base}/ok.png`, { allowPrivate: false })).toBeNull();
    expect(await fetchRemoteBytes("http://169.254.169.254/latest/meta-data", { allowPrivate: false })).toBeNull();
    expect(await fetchRemoteBytes("file:///etc/passwd", { allowPrivate: true })).toBeNull();
  });

  it("follows no redirect, stops past 8 MiB, gives up on a server that never answers, and takes only 200", async () => {
    expect(await fetchRemoteBytes(`${base}/redirect`, { allowPrivate: true })).toBeNull();
    expect(await fetchRemoteBytes(`${base}/huge`, { allowPrivate: true })).toBeNull();
    expect(await fetchRemoteBytes(`${base}/slow`, { allowPrivate: true, timeoutMs: 300 })).toBeNull();
    expect(await fetchRemoteBytes(`${base}/missing`, { allowPrivate: true })).toBeNull();
  });

  it("stores an image as an upload of the remote person, and nothing for what is not an image", async () => {
    const person = await createTestAccount();
    const path = await importRemoteImage(getDb(), person.id, `${base}/ok.png`, { allowPrivate: true });
    expect(path).toMatch(/^\/api\/v1\/storage\/files\/[0-9a-f]{32}\.webp$/);
    expect(await importRemoteImage(getDb(), person.id, `${base}/text`, { allowPrivate: true })).toBeNull();
    const rows = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from uploads where account_id = ${person.id}`);
    expect(rows[0]?.n).toBe(1);
  });
});
