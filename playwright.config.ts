import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const port = process.env.E2E_PORT ?? "3100";
export const baseURL = `http://127.0.0.1:${port}`;

/** The system Chromium (Debian's package); Playwright never downloads a browser here. */
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Journeys run in Chromium's headless shell (Debian's chromium-headless-shell, the same Chromium without the
 * browser's own UI), as Playwright itself does by default: the same journeys took 37 % less time on two cores
 * (docs/adr/0173). It has no push service, so the push journeys run in the full browser. Without the
 * package (or with CHROMIUM_PATH set) every journey runs in the full browser.
 */
const shellPath = process.env.CHROMIUM_PATH ? undefined : ["/usr/bin/chromium-headless-shell"].find((p) => existsSync(p));
const PUSH_JOURNEYS = /push-device\.spec\.ts$/;

const launchOptions = {
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // Chromium 15x's new headless mode loads the omnibox popups (WebUI pages) in a renderer of
    // their own for every context; they cost more CPU than many of our pages (docs/adr/0100).
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
  ],
};

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
    // A trace records a screenshot of every frame and a DOM snapshot of every action: it was about 40 %
    // of the suite's CPU, and nobody reads a clean clone's traces. Ask for one when debugging:
    // `npx playwright test <spec> --trace retain-on-failure` (docs/adr/0100).
    trace: "off",
    screenshot: "only-on-failure",
    // Every new context would register /sw.js, install it and precache the build's ~80 static files:
    // hundreds of contexts a run on two shared cores (−19 % of test time without it, docs/adr/0128).
    // The worker's own journeys (pwa-install, push-device) launch their contexts with "allow".
    serviceWorkers: "block",
    locale: "ru-RU",
    launchOptions,
  },
  projects: shellPath
    ? [
        // The push journeys are the longest (~40 s each): first, so that short ones fill the run's end.
        { name: "chromium-push", testMatch: PUSH_JOURNEYS, use: { ...devices["Desktop Chrome"], channel: undefined } },
        { name: "chromium", testIgnore: PUSH_JOURNEYS, use: { ...devices["Desktop Chrome"], channel: undefined, launchOptions: { ...launchOptions, executablePath: shellPath } } },
      ]
    : [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
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
