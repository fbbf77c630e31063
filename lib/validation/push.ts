import { z } from "zod";

/** The longest endpoint kept: real ones (FCM, Mozilla, Apple, WNS) are 150–700 characters. */
export const PUSH_ENDPOINT_MAX = 1024;

/** A base64url string (padding tolerated, as some browsers add it) that decodes to exactly `bytes` bytes. */
function base64urlKey(bytes: number) {
  const chars = Math.ceil((bytes * 4) / 3);
  return z
    .string("pushErrors.badKeys")
    .max(chars + 2, "pushErrors.badKeys")
    .transform((v) => v.replace(/=+$/, ""))
    .refine((v) => v.length === chars && /^[A-Za-z0-9_-]+$/.test(v), "pushErrors.badKeys");
}

/**
 * POST push/subscriptions — this browser's PushSubscription as `subscription.toJSON()` gives it: the push
 * service's https endpoint and the keys of RFC 8291 (p256dh: an uncompressed P-256 point, 65 bytes;
 * auth: 16 bytes). Anything else in the object (expirationTime) is ignored.
 */
export const pushSubscriptionInput = z.object({
  endpoint: z
    .string("pushErrors.badEndpoint")
    .max(PUSH_ENDPOINT_MAX, "pushErrors.badEndpoint")
    .refine((v) => {
      if (!/^https:\/\/[\x21-\x7e]+$/.test(v)) return false;
      try {
        const url = new URL(v);
        return url.protocol === "https:" && url.hostname.length > 0 && url.username === "" && url.password === "";
      } catch {
        return false;
      }
    }, "pushErrors.badEndpoint"),
  keys: z.object({ p256dh: base64urlKey(65), auth: base64urlKey(16) }, "pushErrors.badKeys"),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** DELETE push/subscriptions/{id} */
export const pushSubscriptionIdParams = z.object({
  id: z.coerce.number("pushErrors.notFound").int("pushErrors.notFound").min(1, "pushErrors.notFound").max(Number.MAX_SAFE_INTEGER, "pushErrors.notFound"),
});

/** One device in the settings list. */
export type PushDeviceDto = { id: number; userAgentLabel: string; language: string; createdAt: string; lastSuccessAt: string | null };

/** GET push/subscriptions — the viewer's devices and the key a browser subscribes with (applicationServerKey). */
export type PushDevicesDto = { vapidPublicKey: string; devices: PushDeviceDto[] };

/**
 * What the service worker receives (decrypted): the notification to show. `tag` collapses a burst (one
 * dialog's messages replace each other), `url` is where a click leads (same origin, a path).
 */
export type PushPayload = { title: string; body: string; icon: string | null; url: string; tag: string; type: string };
