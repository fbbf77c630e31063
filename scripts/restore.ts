// npm run restore -- <folder or s3://bucket/prefix> [--until "2026-12-01 10:00"]: brings a backup back into the empty DATA_DIR
// (or the empty DATABASE_URL) of this environment (docs/adr/0141); `npm start` then runs on it.
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { EnvError, parseEnv } from "@/lib/server/env";
import { s3ConfigOf } from "@/lib/server/storage/blob-store";
import { parseArgs, restoreFrom, s3CredentialsOf } from "@/lib/server/backup/run";

const say = (line: string) => console.log(`[krug restore] ${line}`);

try {
  const env = parseEnv();
  const { folder, until } = parseArgs(process.argv.slice(2));
  if (!folder) throw new Error('name the backup folder: npm run restore -- /path/to/backups [--until "2026-12-01 10:00"]');
  const target = { dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, embedded: !env.DATABASE_URL, s3: s3CredentialsOf(env), media: s3ConfigOf(env) };
  const { backup, files } = await restoreFrom(folder, until, target, say);
  say(`done: base ${backup.id}${until ? ` up to ${until}` : ""}, ${files} uploaded files; start Krug with npm start`);
  process.exit(0);
} catch (err) {
  console.error(`[krug restore] failed: ${err instanceof EnvError ? err.message : (err as Error).message}`);
  process.exit(1);
}
