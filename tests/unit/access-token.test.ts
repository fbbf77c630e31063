// The access-token check (lib/server/auth/tokens.ts, docs/adr/0091): node:crypto's HMAC with the rules
// jose applies, so a token jose signs is accepted and anything else a client could send is refused.
import { createHmac } from "node:crypto";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signAccessToken, verifiedTokenCount, verifyAccessToken } from "@/lib/server/auth/tokens";

const secret = "a-test-secret-of-at-least-32-characters-long";
const claims = { accountId: 42, sessionId: "3f0c6a9e-6d7b-4a8e-9a55-0b6f4d2c1e7a" };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);

/** A token made by hand: any header and payload, signed with HMAC-SHA256 under `key`. */
function handMade(header: unknown, payload: unknown, key = secret): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}

const goodPayload = () => ({ sid: claims.sessionId, sub: "42", iss: "krug", iat: now(), exp: now() + 60 });

describe("verifyAccessToken", () => {
  it("accepts a token the app signed, with its claims", async () => {
    expect(await verifyAccessToken(await signAccessToken(claims, secret), secret)).toEqual(claims);
  });

  it("accepts a token jose signs with the same claims in another order", async () => {
    const token = await new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer("krug")
      .setExpirationTime(now() + 60)
      .setSubject("42")
      .sign(new TextEncoder().encode(secret));
    expect(await verifyAccessToken(token, secret)).toEqual(claims);
  });

  it("refuses another secret, a changed payload and a changed signature", async () => {
    const token = await signAccessToken(claims, secret);
    expect(await verifyAccessToken(token, `${secret}-other`)).toBeNull();
    const [h, , s] = token.split(".");
    expect(await verifyAccessToken(`${h}.${b64({ ...goodPayload(), sub: "1" })}.${s}`, secret)).toBeNull();
    const flipped = s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1);
    expect(await verifyAccessToken(`${token.split(".").slice(0, 2).join(".")}.${flipped}`, secret)).toBeNull();
  });

  it("refuses an expired token, and one not valid yet", async () => {
    expect(await verifyAccessToken(await signAccessToken(claims, secret, -1), secret)).toBeNull();
    expect(await verifyAccessToken(handMade({ alg: "HS256" }, { ...goodPayload(), exp: now() }), secret)).toBeNull();
    expect(await verifyAccessToken(handMade({ alg: "HS256" }, { ...goodPayload(), nbf: now() + 60 }), secret)).toBeNull();
    expect(await verifyAccessToken(handMade({ alg: "HS256" }, { ...goodPayload(), nbf: now() - 1 }), secret)).toEqual(claims);
  });

  it("refuses any header but plain HS256", async () => {
    for (const header of [{ alg: "none" }, { alg: "HS512" }, { alg: "hs256" }, { alg: "HS256", crit: ["exp"] }, { alg: "HS256", b64: false }, []]) {
      expect(await verifyAccessToken(handMade(header, goodPayload()), secret)).toBeNull();
    }
    const unsigned = `${b64({ alg: "none" })}.${b64(goodPayload())}.`;
    expect(await verifyAccessToken(unsigned, secret)).toBeNull();
  });

  it("refuses a wrong issuer, subject or session id", async () => {
    const bad = [
      { ...goodPayload(), iss: "other" },
      { ...goodPayload(), iss: undefined },
      { ...goodPayload(), sub: 42 },
      { ...goodPayload(), sub: "0" },
      { ...goodPayload(), sub: "-3" },
      { ...goodPayload(), sub: "1.5" },
      { ...goodPayload(), sub: "9007199254740993" },
      { ...goodPayload(), sid: 7 },
      { ...goodPayload(), sid: undefined },
      { ...goodPayload(), exp: String(now() + 60) },
      { ...goodPayload(), exp: undefined },
    ];
    for (const payload of bad) expect(await verifyAccessToken(handMade({ alg: "HS256" }, payload), secret)).toBeNull();
  });

  it("refuses what is not a compact token", async () => {
    const token = await signAccessToken(claims, secret);
    for (const t of ["", "a.b", `${token}.x`, token.replace(".", ".."), `${token} `, token.replace(/^./, "*"), handMade({ alg: "HS256" }, "text")]) {
      expect(await verifyAccessToken(t, secret)).toBeNull();
    }
  });

  describe("the process's verified tokens (docs/adr/0146)", () => {
    afterEach(() => vi.useRealTimers());

    it("keeps only tokens whose signature checked, and refuses a kept one under another secret", async () => {
      const before = verifiedTokenCount();
      const forged = handMade({ alg: "HS256" }, goodPayload(), `${secret}-not-ours`);
      expect(await verifyAccessToken(forged, secret)).toBeNull();
      expect(await verifyAccessToken(forged, secret)).toBeNull();
      expect(verifiedTokenCount()).toBe(before);
      const token = handMade({ alg: "HS256" }, { ...goodPayload(), sid: "kept" });
      expect(await verifyAccessToken(token, secret)).toEqual({ accountId: 42, sessionId: "kept" });
      expect(verifiedTokenCount()).toBe(before + 1);
      expect(await verifyAccessToken(token, secret)).toEqual({ accountId: 42, sessionId: "kept" });
      expect(await verifyAccessToken(token, `${secret}-other`)).toBeNull();
    });

    it("refuses a kept token once it has expired", async () => {
      vi.useFakeTimers({ now: Date.now(), toFake: ["Date"] });
      const token = handMade({ alg: "HS256" }, { ...goodPayload(), sid: "expiring", exp: now() + 30 });
      expect(await verifyAccessToken(token, secret)).not.toBeNull();
      vi.setSystemTime(Date.now() + 31_000);
      expect(await verifyAccessToken(token, secret)).toBeNull();
      expect(await verifyAccessToken(token, secret)).toBeNull();
      const later = handMade({ alg: "HS256" }, { ...goodPayload(), sid: "not-yet", nbf: now() - 1, exp: now() + 600 });
      expect(await verifyAccessToken(later, secret)).not.toBeNull();
      vi.setSystemTime(Date.now() + 700_000);
      expect(await verifyAccessToken(later, secret)).toBeNull();
    });

    it("stays bounded however many valid tokens arrive", async () => {
      for (let i = 0; i < 21_000; i++) await verifyAccessToken(handMade({ alg: "HS256" }, { ...goodPayload(), sid: `s${i}` }), secret);
      expect(verifiedTokenCount()).toBeLessThanOrEqual(20_000);
      expect(verifiedTokenCount()).toBeGreaterThan(10_000);
      const last = handMade({ alg: "HS256" }, { ...goodPayload(), sid: "s20999" });
      expect(await verifyAccessToken(last, secret)).toEqual({ accountId: 42, sessionId: "s20999" });
    });
  });
});
