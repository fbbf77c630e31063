// `npm run bench -- --only=robustness` (issue 29 §2, docs/adr/0138): the long run of the property-based
// robustness test generated from the OpenAPI document — BENCH_ROBUSTNESS_RUNS requests per operation
// (default 200; the integration suite sends 4), on its own database of the bench's Postgres. Fails on any
// 5xx, any answer the document does not describe, any change stored by a refused request.
import { spawn } from "node:child_process";

export async function benchRobustness(databaseUrl: string): Promise<{ runsPerOperation: number; seconds: number; ok: boolean }> {
  const runsPerOperation = Number(process.env.BENCH_ROBUSTNESS_RUNS ?? 200);
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn("npx", ["vitest", "run", "--project", "integration", "tests/integration/openapi-robustness.test.ts"], {
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: databaseUrl, OPENAPI_ROBUSTNESS_RUNS: String(runsPerOperation), LOG_LEVEL: "silent" },
    });
    child.on("exit", (c) => resolve(c ?? 1));
  });
  return { runsPerOperation, seconds: Math.round((performance.now() - started) / 1000), ok: code === 0 };
}

export function printRobustness(r: { runsPerOperation: number; seconds: number; ok: boolean }, log: (line: string) => void): void {
  log(`robustness (OpenAPI-driven): ${r.runsPerOperation} requests per operation, ${r.seconds} s, ${r.ok ? "no 5xx, every answer documented, no refused write stored" : "FAILED (see above)"}`);
  if (!r.ok) process.exitCode = 1;
}
