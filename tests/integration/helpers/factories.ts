import { randomBytes } from "node:crypto";
import { getDb } from "@/db/client";
import { resolveViewer, type Viewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { createAccount } from "@/lib/server/services/accounts/create-account";
import { login } from "@/lib/server/services/auth/login";
import type { ServiceCtx } from "@/lib/server/services/context";

export const TEST_PASSWORD = "Secret-pass1!";

export function ctxOf(viewer: Viewer | null = null): ServiceCtx {
  return { viewer, db: getDb(), requestId: "test", ip: "127.0.0.1" };
}

/** A new account with a unique e-mail; any field can be overridden. */
export async function createTestAccount(
  overrides: Partial<{ email: string; password: string; firstName: string; lastName: string; language: "ru" | "en" }> = {},
) {
  const email = overrides.email ?? `user-${randomBytes(5).toString("hex")}@example.com`;
  const password = overrides.password ?? TEST_PASSWORD;
  const row = await createAccount({
    ctx: ctxOf(),
    input: { email, password, firstName: overrides.firstName ?? "Ivan", lastName: overrides.lastName ?? "Petrov", language: overrides.language },
  });
  return { id: row.id, email, password };
}

/** A signed-in account: its tokens and the viewer the API would see. */
export async function signedInAccount(overrides: Parameters<typeof createTestAccount>[0] = {}) {
  const account = await createTestAccount(overrides);
  const tokens = await login({ ctx: ctxOf(), input: { email: account.email, password: account.password } });
  const viewer = (await resolveViewer(getDb(), tokens.accessToken, env().AUTH_SECRET))!;
  return { ...account, ...tokens, viewer, ctx: ctxOf(viewer) };
}
