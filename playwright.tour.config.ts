import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run tour` (tests/tour): screenshots of every route for people to look at; not part of `npm test`.
export default defineConfig({ ...base, testDir: "tests/tour", testMatch: /.*\.tour\.ts$/, timeout: 1_800_000 });
