// The e2e account factory: one long-lived process per Playwright worker (tests/e2e/fixtures.ts) that
// makes accounts the operator's way, one JSON request per stdin line, one JSON answer per stdout line.
// A process per account (`npm run account:create`) spent seconds on start-up and migrations each time.
// Ends when its stdin closes (the worker is gone).
import { createInterface } from "node:readline";
import { isRole, openAccountMaker, type NewAccount } from "./lib/account-maker";

async function main() {
  const maker = await openAccountMaker();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  // One at a time, in order: each answer carries its request's number.
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const { seq, account } = JSON.parse(line) as { seq: number; account: NewAccount };
    try {
      if (account.role !== undefined && !isRole(account.role)) throw new Error(`unknown role ${String(account.role)}`);
      process.stdout.write(`${JSON.stringify({ seq, account: await maker.make(account) })}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ seq, error: err instanceof Error ? err.message : String(err) })}\n`);
    }
  }
  await maker.close();
}

main().catch((err: unknown) => {
  console.error(`e2e account factory failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
