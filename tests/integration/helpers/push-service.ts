// A push service on this machine (RFC 8030) standing in for FCM/Mozilla/Apple in tests: it checks each
// request's VAPID JWT (RFC 8292) and decrypts its payload (RFC 8291) with the subscription's private key,
// through http_ece, the implementation web-push itself uses. No internet involved.
//
// Its endpoints are named https://push.krug.test:<port>/…: a name no resolver knows, so subscribing accepts
// it (docs/adr/0163), and the sender reaches it through `sender` — a resolver that gives 127.0.0.1 for that
// name and the sender's test-only loopback option with this service's certificate.
import { execFileSync } from "node:child_process";
import { createECDH, randomBytes, type ECDH } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error http_ece ships no types
import ece from "http_ece";
import { importJWK, jwtVerify } from "jose";
import { systemResolve } from "@/lib/server/services/push/endpoint-address";
import type { PushSenderOptions } from "@/lib/server/services/push/send";

/** The stand-in's host name: `.test` is never delegated (RFC 6761), so only the tests' resolver knows it. */
export const PUSH_HOST = "push.krug.test";

/** One request the stand-in received: what the browser would see after decryption, and the RFC 8030 headers. */
export type Received = {
  path: string;
  payload: unknown;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  jwt: { aud: unknown; sub: unknown; exp: unknown };
  vapidKey: string;
};

/** A browser's subscription: its ECDH key pair and auth secret (the private half stays here). */
export type Device = { endpoint: string; ecdh: ECDH; auth: Buffer; body: { endpoint: string; keys: { p256dh: string; auth: string } } };

export type PushService = {
  origin: string;
  /** How the sender reaches this service: PUSH_HOST resolves to 127.0.0.1, which the test-only option allows. */
  sender: PushSenderOptions;
  /** Its certificate, for another stand-in on the same name. */
  cert: Buffer;
  key: Buffer;
  received: Received[];
  /** Requests refused because the JWT or the encryption was wrong. */
  rejected: string[];
  /** A new device whose endpoint answers `status` (201 delivered, 410 gone, 500 failing, 307 a redirect to `location`). */
  device(status: 201 | 307 | 404 | 410 | 500, location?: string): Device;
  close(): Promise<void>;
};

function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), "krug-push-"));
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", `/CN=${PUSH_HOST}`, "-addext", `subjectAltName=DNS:${PUSH_HOST},IP:127.0.0.1`,
      "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    return { key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startPushService(): Promise<PushService> {
  const { key, cert } = certificate();
  const devices = new Map<string, { ecdh: ECDH; auth: Buffer; status: number; location?: string }>();
  const received: Received[] = [];
  const rejected: string[] = [];
  let origin = "";

  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const device = devices.get(req.url ?? "");
        if (!device) {
          res.writeHead(404).end();
          return;
        }
        try {
          // "vapid t=<JWT>, k=<application server public key>" (RFC 8292 section 3).
          const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? "");
          if (!auth) throw new Error("no vapid authorization");
          const point = Buffer.from(auth[2], "base64url");
          if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
          const publicKey = await importJWK(
            { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
            "ES256",
          );
          const { payload: claims } = await jwtVerify(auth[1], publicKey, { algorithms: ["ES256"], audience: origin });
          const now = Math.floor(Date.now() / 1000);
          if (typeof claims.exp !== "number" || claims.exp <= now || claims.exp > now + 24 * 3600) throw new Error("exp not within 24 hours");
          if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub)) throw new Error("sub is not mailto: or https:");
          if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
          const plain: Buffer = ece.decrypt(Buffer.concat(chunks), { version: "aes128gcm", privateKey: device.ecdh, authSecret: device.auth });
          received.push({
            path: req.url ?? "",
            payload: JSON.parse(plain.toString("utf8")),
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            topic: req.headers.topic as string | undefined,
            jwt: { aud: claims.aud, sub: claims.sub, exp: claims.exp },
            vapidKey: auth[2],
          });
          res.writeHead(device.status, device.location ? { location: device.location } : {}).end();
        } catch (err) {
          rejected.push(String(err));
          res.writeHead(400).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://${PUSH_HOST}:${(server.address() as AddressInfo).port}`;
  const sender: PushSenderOptions = {
    resolve: async (hostname) => (hostname === PUSH_HOST ? ["127.0.0.1"] : systemResolve(hostname)),
    testOnlyLoopback: { ca: cert },
  };

  return {
    origin,
    sender,
    cert,
    key,
    received,
    rejected,
    device(status, location) {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const url = `/push/${status}/${randomBytes(8).toString("hex")}`;
      devices.set(url, { ecdh, auth, status, location });
      const endpoint = origin + url;
      return { endpoint, ecdh, auth, body: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } } };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
