// npm run backup -- <folder or s3://bucket/prefix>: an online backup of the database and the uploads (docs/adr/0141).
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { EnvError, parseEnv } from "@/lib/server/env";
import { s3ConfigOf } from "@/lib/server/storage/blob-store";
import { backupTo, destinationOf, parseArgs, s3CredentialsOf } from "@/lib/server/backup/run";
import { recordBackup } from "@/lib/server/backup/record";
import { backupDoneLines } from "@/lib/server/backup/summary";

const say = (line: string) => console.log(`[krug backup] ${line}`);

try {
  const env = parseEnv();
  const { folder } = parseArgs(process.argv.slice(2));
  const dest = destinationOf(folder);
  const target = { dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, embedded: !env.DATABASE_URL, s3: s3CredentialsOf(env), media: s3ConfigOf(env) };
  const started = new Date();
  try {
    const manifest = await backupTo(dest, target, say);
    await recordBackup(target, { trigger: "manual", dest, startedAt: started, manifest }).catch((err) => say(`(not recorded for the admin page: ${(err as Error).message})`));
    for (const line of backupDoneLines(manifest, dest)) say(line);
    process.exit(0);
  } catch (err) {
    await recordBackup(target, { trigger: "manual", dest, startedAt: started, error: (err as Error).message }).catch(() => {});
    throw err;
  }
} catch (err) {
  console.error(`[krug backup] failed: ${err instanceof EnvError ? err.message : (err as Error).message}`);
  process.exit(1);
}
