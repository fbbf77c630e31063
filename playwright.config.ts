import { defineConfig, devices } from "@playwright/test";

const port = process.env.E2E_PORT ?? "3100";
export const baseURL = `http://127.0.0.1:${port}`;

/** The system Chromium (Debian's package); Playwright never downloads a browser here. */
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  // Every journey makes its own accounts and data, so journeys run side by side, test by test, on two
  // workers (docs/adr/0100). E2E_WORKERS=1 runs them one at a time.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    locale: "ru-RU",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "npm run e2e:server",
    url: `${baseURL}/api/ready`,
    timeout: 600_000,
    reuseExistingServer: !!process.env.E2E_REUSE_SERVER,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
