// `npm run migrate`: applies migrations to DATABASE_URL (or the embedded database) and exits.
import "../scripts/lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { parseEnv } from "@/lib/server/env";
import { runMigrations } from "./migrate";
import { startEmbeddedPostgres } from "./embedded";

async function main() {
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: env.DATA_DIR });
  try {
    await runMigrations(env.DATABASE_URL ?? embedded!.url);
    console.log("Migrations applied.");
  } finally {
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(`Migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
