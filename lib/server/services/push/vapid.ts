import "server-only";
import webpush from "web-push";
import { env, loadOrCreateDataFile } from "@/lib/server/env";

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

let cached: VapidKeys | undefined;

/**
 * The application server's key pair (VAPID, RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set (every
 * instance the same), else a pair generated once into DATA_DIR/vapid-keys.json, like the auth secret. The
 * subject is VAPID_SUBJECT, else a mailto: of MAIL_FROM's address.
 */
export function vapidKeys(): VapidKeys {
  if (cached) return cached;
  const e = env();
  const pair =
    e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
      ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
      : (JSON.parse(loadOrCreateDataFile(e.DATA_DIR, "vapid-keys.json", () => JSON.stringify(webpush.generateVAPIDKeys()))) as { publicKey: string; privateKey: string });
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(e.MAIL_FROM)?.[1] ?? (/^\S+@\S+$/.test(e.MAIL_FROM) ? e.MAIL_FROM : "no-reply@krug.local");
  cached = { ...pair, subject: e.VAPID_SUBJECT ?? `mailto:${address}` };
  return cached;
}
