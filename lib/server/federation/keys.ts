import "server-only";
import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accountKeys } from "@/db/schema";

/**
 * An account's actor keys (docs/adr/0172): RSA for HTTP Signatures, Ed25519 for Object Integrity Proofs.
 * Made once, the first time the account switches federation on; WebCrypto generates them off the event
 * loop. Two requests racing make two pairs, and the first one stored wins.
 */
export async function ensureActorKeys(db: DbOrTx, accountId: number): Promise<void> {
  const [found] = await db.select({ id: accountKeys.accountId }).from(accountKeys).where(eq(accountKeys.accountId, accountId)).limit(1);
  if (found) return;
  const [rsa, ed] = await Promise.all([generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), generateCryptoKeyPair("Ed25519")]);
  const [rsaPublic, rsaPrivate, ed25519Public, ed25519Private] = await Promise.all([
    exportJwk(rsa.publicKey),
    exportJwk(rsa.privateKey),
    exportJwk(ed.publicKey),
    exportJwk(ed.privateKey),
  ]);
  await db.insert(accountKeys).values({ accountId, rsaPublic, rsaPrivate, ed25519Public, ed25519Private }).onConflictDoNothing();
}

/** The account's key pairs, RSA first (the one Mastodon reads as `publicKey`), or none. */
export async function actorKeyPairs(db: DbOrTx, accountId: number): Promise<CryptoKeyPair[]> {
  const [row] = await db.select().from(accountKeys).where(eq(accountKeys.accountId, accountId)).limit(1);
  if (!row) return [];
  const [rsaPublic, rsaPrivate, edPublic, edPrivate] = await Promise.all([
    importJwk(row.rsaPublic, "public"),
    importJwk(row.rsaPrivate, "private"),
    importJwk(row.ed25519Public, "public"),
    importJwk(row.ed25519Private, "private"),
  ]);
  return [
    { publicKey: rsaPublic, privateKey: rsaPrivate },
    { publicKey: edPublic, privateKey: edPrivate },
  ];
}
