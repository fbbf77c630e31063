import { describe, expect, it } from "vitest";
import { getSql } from "@/db/client";
import { POST as changePasswordLinkRoute } from "@/app/api/v1/auth/change-password-link/route";
import { POST as recoverySetRoute } from "@/app/api/v1/auth/password/recovery/[secret]/route";
import { POST as recoveryRoute } from "@/app/api/v1/auth/password/recovery/route";
import { hashToken } from "@/lib/server/auth/tokens";
import { isPasswordLinkAlive } from "@/lib/server/services/auth/link-status";
import { createTestAccount, ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { lastMail, secretOf, snapshot, uniqueEmail, uniqueIp } from "./helpers/auth";

// The pages /change-password/{secret} and /shift-password?secret=… ask this before showing the form.
const alive = (kind: "PASSWORD_RECOVERY" | "PASSWORD_CHANGE", secret: string) =>
  isPasswordLinkAlive({ ctx: ctxOf(), kind, secret });

describe("isPasswordLinkAlive", () => {
  it("is true for a live link of its own kind only, and spends nothing", async () => {
    const account = await createTestAccount({ email: uniqueEmail("alive") });
    await call(recoveryRoute, { body: { email: account.email }, headers: { "x-krug-client-address": uniqueIp() } });
    const secret = secretOf((await lastMail(account.email))!.links[0]);
    const before = await snapshot();
    expect(await alive("PASSWORD_RECOVERY", secret)).toBe(true);
    expect(await alive("PASSWORD_RECOVERY", secret)).toBe(true);
    expect(await alive("PASSWORD_CHANGE", secret)).toBe(false);
    expect(await snapshot()).toEqual(before);

    // Once used it is dead.
    const used = await call(recoverySetRoute, { body: { password: "Another-pass9$" }, params: { secret } });
    expect(used.status).toBe(200);
    expect(await alive("PASSWORD_RECOVERY", secret)).toBe(false);
  });

  it("is false for an expired, unknown or malformed secret", async () => {
    const me = await signedInAccount({ email: uniqueEmail("change") });
    expect((await call(changePasswordLinkRoute, { method: "POST", token: me.accessToken })).status).toBe(200);
    const secret = secretOf((await lastMail(me.email))!.links[0]);
    expect(await alive("PASSWORD_CHANGE", secret)).toBe(true);
    await getSql()`update one_time_links set expires_at = now() - interval '1 second' where token_hash = ${hashToken(secret)}`;
    expect(await alive("PASSWORD_CHANGE", secret)).toBe(false);
    for (const bad of ["no-such-link-000000000000000", "", "'; drop table accounts; --", "x".repeat(500)]) {
      expect(await alive("PASSWORD_CHANGE", bad)).toBe(false);
    }
  });
});
