import { createHmac } from "node:crypto";

/**
 * Whose page this is, for the service worker that keeps it on the device (docs/adr/0178): a keyed hash of
 * the account id, so the header names the account to this browser only and cannot be guessed from an id.
 */
export function deviceAccountOf(accountId: number, secret: string): string {
  return createHmac("sha256", secret).update(`krug-device:${accountId}`).digest("base64url").slice(0, 22);
}
