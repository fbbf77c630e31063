import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Links prefetch on intent, not on sight (components/ui/link.tsx, docs/adr/0124).
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    ignores: ["components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use components/ui/link: it prefetches on intent, not on sight (docs/adr/0124)." }] }],
    },
  },
  {
    // Arrows point down: app → components → lib. A module of lib imports nothing of components or app
    // (issue 40, item 22: one such import closed a circle of eight post files). Repeats the rule above
    // for lib: a later block's options replace an earlier one's. The app's icon (an asset, not code) may be imported.
    files: ["lib/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "next/link", message: "Use components/ui/link: it prefetches on intent, not on sight (docs/adr/0124)." }],
          patterns: [{ group: ["@/components/*", "@/app/*", "!@/app/*.svg"], message: "lib is below components and app: move the code down, or the caller up (issue 40, item 22)." }],
        },
      ],
    },
  },
  {
    // Test helpers deal with arbitrary JSON answers.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  globalIgnores([
    ".next/**",
    ".next-*/**",
    ".data*/**",
    "node_modules/**",
    "drizzle/**",
    "next-env.d.ts",
    // The trivial page's build (bench/trivial-page.ts).
    "bench/trivial-page/.next/**",
    "bench/trivial-page/next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
  ]),
]);
