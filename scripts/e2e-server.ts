// The server Playwright tests against: a fresh database every run, the production build, npm start.
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { startFakeOpenMeteo } from "../tests/support/fake-open-meteo";
import { nextBuild } from "./lib/next-build";

const port = process.env.E2E_PORT ?? "3100";
// Several e2e servers (a helper beside the main run) keep apart by port: data, database and build.
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e");
const dbName = port === "3100" ? "krug_e2e" : `krug_e2e_${port}`;

async function freshDatabase(serverUrl: string): Promise<string> {
  const admin = new URL(serverUrl);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists ${dbName} with (force)`);
  await sql.unsafe(`create database ${dbName}`);
  await sql.end();
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

// `--build-only` makes the production build with the same environment and exits: `npm test` runs it
// beside the integration tests, then starts the journeys with E2E_REUSE_BUILD=1 (scripts/test.sh).
const buildOnly = process.argv.includes("--build-only");

async function main() {
  if (!buildOnly) {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    REALTIME_PORT: process.env.E2E_REALTIME_PORT ?? "3101",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    CAPTCHA_TEST_CODE: process.env.CAPTCHA_TEST_CODE ?? "E2E-CAPTCHA",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // The fediverse journey's stand-in Krug listens on 127.0.0.1 (tests/e2e/fediverse-follow.spec.ts): the
    // federation client may reach it (it warns at start; never set in production, issue 43).
    FEDERATION_ALLOW_PRIVATE_ADDRESSES: "1",
    // Every browser test comes from 127.0.0.1: per-IP limits would stop the suite, not an attacker.
    // The limits themselves are proven by integration tests.
    RATE_LIMIT_LOGIN_IP: "10000/5m",
    RATE_LIMIT_LOGIN_ACCOUNT: "1000/5m",
    RATE_LIMIT_REGISTER: "10000/5m",
    RATE_LIMIT_CAPTCHA: "10000/5m",
    RATE_LIMIT_RECOVERY: "10000/5m",
    RATE_LIMIT_UPLOAD: "10000/5m",
    RATE_LIMIT_SEARCH: "10000/5m",
    RATE_LIMIT_FRIEND_REQUEST: "10000/5m",
    // Per-account write limits keep their defaults (journeys use fresh accounts), except posts: a feed
    // journey writes 13 in a row (posts-cards.spec.ts). tests/e2e/write-limits.spec.ts meets the limits.
    RATE_LIMIT_POST: "30/1m",
  };
  // The build fails on a whole-project tracing warning (scripts/lib/next-build.ts).
  if (buildOnly) process.exit(await nextBuild(env));
  if (process.env.DATABASE_URL) env.DATABASE_URL = await freshDatabase(process.env.DATABASE_URL);
  // The weather card's provider: a local fake in Open-Meteo's format, down for places south of the equator
  // (tests/e2e/weather.spec.ts). It lives as long as this process.
  env.WEATHER_API_URL = (await startFakeOpenMeteo({ downSouth: true })).url;
  // Tests find the database (to create accounts) and the mail outbox through this file.
  writeFileSync(path.join(dataDir, "e2e.json"), JSON.stringify({ databaseUrl: env.DATABASE_URL ?? null, dataDir }));

  if (!process.env.E2E_REUSE_BUILD) {
    const code = await nextBuild(env);
    if (code !== 0) process.exit(code);
  }
  const start = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], { stdio: "inherit", env });
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => start.kill(signal));
  start.on("exit", (code) => process.exit(code ?? 0));
}

void main();
