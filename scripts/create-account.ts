// `npm run account:create -- --email a@b.c --password '…' --first Anna --last Ivanova [--role ADMIN] [--language en]`
// Creates an account directly (no captcha): the operator's way to make the first administrator.
// Prints the account as JSON. Uses DATABASE_URL, else the embedded database of DATA_DIR.
import { parseArgs } from "node:util";
import { closeDb, getDb } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { runMigrations } from "@/db/migrate";
import { parseEnv } from "@/lib/server/env";
import { createAccount } from "@/lib/server/services/accounts/create-account";
import { grantRole } from "@/lib/server/services/accounts/grant-role";

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      password: { type: "string" },
      first: { type: "string" },
      last: { type: "string" },
      role: { type: "string", default: "USER" },
      language: { type: "string", default: "ru" },
    },
  });
  if (!values.email || !values.password || !values.first || !values.last) {
    throw new Error("usage: --email --password --first --last [--role USER|MODERATOR|ADMIN] [--language ru|en]");
  }
  const role = values.role as "USER" | "MODERATOR" | "ADMIN";
  if (!["USER", "MODERATOR", "ADMIN"].includes(role)) throw new Error("--role must be USER, MODERATOR or ADMIN");
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: env.DATA_DIR, shared: true });
  process.env.DATABASE_URL = env.DATABASE_URL ?? embedded!.url;
  try {
    await runMigrations(process.env.DATABASE_URL);
    const ctx = { viewer: null, db: getDb(), requestId: "cli" };
    const account = await createAccount({
      ctx,
      input: { email: values.email, password: values.password, firstName: values.first, lastName: values.last, language: values.language as "ru" | "en" },
    });
    if (role !== "USER") await grantRole({ ctx, accountId: account.id, role });
    console.log(JSON.stringify({ id: account.id, email: account.email, role }));
  } finally {
    await closeDb();
    // Krug may be running on this database: stop only a server this command started.
    if (embedded?.startedHere) await embedded.stop();
  }
}

main().catch((err: unknown) => {
  console.error(`account:create failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
