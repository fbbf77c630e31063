import "server-only";
import { webcrypto } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accountKeys } from "@/db/schema";

/**
 * An account's actor keys (docs/adr/0172): RSA-2048 (the size most fediverse servers make) for HTTP Signatures, Ed25519
 * for Object Integrity Proofs. Made once, the first time the account switches federation on; WebCrypto generates them off the event
 * loop (Node's own, as Fedify's generateCryptoKeyPair does: the privacy call need not load Fedify). Two
 * requests racing make two pairs, and the first one stored wins.
 */
export async function ensureActorKeys(db: DbOrTx, accountId: number): Promise<void> {
  const [found] = await db.select({ id: accountKeys.accountId }).from(accountKeys).where(eq(accountKeys.accountId, accountId)).limit(1);
  if (found) return;
  const { subtle } = webcrypto;
  const [rsa, ed] = await Promise.all([
    subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"]),
    subtle.generateKey("Ed25519", true, ["sign", "verify"]) as Promise<CryptoKeyPair>,
  ]);
  const [rsaPublic, rsaPrivate, ed25519Public, ed25519Private] = await Promise.all([
    subtle.exportKey("jwk", rsa.publicKey),
    subtle.exportKey("jwk", rsa.privateKey),
    subtle.exportKey("jwk", ed.publicKey),
    subtle.exportKey("jwk", ed.privateKey),
  ]);
  await db.insert(accountKeys).values({ accountId, rsaPublic, rsaPrivate, ed25519Public, ed25519Private }).onConflictDoNothing();
}
