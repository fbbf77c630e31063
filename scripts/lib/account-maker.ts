// Makes accounts the operator's way (no captcha): on DATABASE_URL, else on DATA_DIR's embedded
// database. Shared by `npm run account:create` (one account) and the e2e account factory (many, from
// one process: tests/e2e/fixtures.ts).
import { closeDb, getDb } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { runMigrations } from "@/db/migrate";
import { parseEnv } from "@/lib/server/env";
import { createAccount } from "@/lib/server/services/accounts/create-account";
import { grantRole } from "@/lib/server/services/accounts/grant-role";

export type Role = "USER" | "MODERATOR" | "ADMIN";
export type NewAccount = { email: string; password: string; firstName: string; lastName: string; role?: Role; language?: "ru" | "en" };

export function isRole(value: string): value is Role {
  return ["USER", "MODERATOR", "ADMIN"].includes(value);
}

export async function openAccountMaker() {
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: env.DATA_DIR, shared: true });
  process.env.DATABASE_URL = env.DATABASE_URL ?? embedded!.url;
  try {
    await runMigrations(process.env.DATABASE_URL);
  } catch (err) {
    if (embedded?.startedHere) await embedded.stop();
    throw err;
  }
  const ctx = { viewer: null, db: getDb(), requestId: "cli" };
  return {
    async make({ role = "USER", language = "ru", ...input }: NewAccount) {
      const account = await createAccount({ ctx, input: { ...input, language } });
      if (role !== "USER") await grantRole({ ctx, accountId: account.id, role });
      return { id: account.id, email: account.email, role };
    },
    async close() {
      await closeDb();
      // Krug may be running on this database: stop only a server this process started.
      if (embedded?.startedHere) await embedded.stop();
    },
  };
}
