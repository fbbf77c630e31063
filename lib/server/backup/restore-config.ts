import "server-only";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { initCluster } from "@/db/embedded";
import { exists } from "./files";
import { SECRETS } from "./pool";
import { realFileInside } from "./safe-paths";

// What a restore takes from Krug rather than from the backup (issue 40 item 7, docs/adr/0161).

/** The cluster's configuration files, as initdb writes them; Krug never edits them (its settings go on the command line). */
export const CONFIG_FILES = ["postgresql.conf", "postgresql.auto.conf", "pg_hba.conf", "pg_ident.conf"] as const;

/**
 * The configuration a restored cluster runs with: the files a fresh initdb writes with Krug's own flags —
 * exactly what `npm start` made the cluster with — never the backup's copies, in which anyone who could
 * write the backup might have set `archive_command`, `shared_preload_libraries` or a trusting pg_hba line.
 * About a second of initdb in a temporary folder.
 */
export async function krugsOwnConfig(log: (line: string) => void): Promise<Map<string, Buffer>> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "krug-restore-config-"));
  try {
    await chmod(tmp, 0o755); // as root, initdb runs as `postgres` and must reach its folder
    const pgDir = path.join(tmp, "pg");
    await initCluster(pgDir, randomBytes(24).toString("hex"), () => {});
    const out = new Map<string, Buffer>();
    for (const name of CONFIG_FILES) {
      const file = path.join(pgDir, name);
      if (await exists(file)) out.set(name, await readFile(file));
    }
    log(`the cluster's configuration: Krug's own (${[...out.keys()].join(", ")}), not the backup's`);
    return out;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The base's copies of DATA_DIR's secrets are regular files inside the backup (no link to a file elsewhere). */
export async function checkedSecrets(source: string, baseDir: string): Promise<void> {
  for (const name of SECRETS) {
    const file = path.join(baseDir, "secrets", name);
    if (await exists(file)) await realFileInside(source, file, "secret");
  }
}
