import path from "node:path";
import { defineConfig } from "vitest/config";
import { isDroppedTypeFetch } from "./db/type-fetch-guard";

const root = path.resolve(import.meta.dirname);
const alias = {
  "@": root,
  // "server-only" throws outside React Server Components; tests and the sidecar are server code too.
  "server-only": path.join(root, "tests/support/empty.ts"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // The one unhandled rejection the app's processes log and survive (db/type-fetch-guard.ts): a test that cuts
    // the database's connections meets it as production does, and it is not the test's failure.
    onUnhandledError: (error) => !isDroppedTypeFetch(error),
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          setupFiles: ["tests/integration/setup.ts"],
          // Two cores: two suites at a time, each on its own database.
          maxWorkers: 2,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
