import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema only; they are applied at start by db/migrate.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./drizzle",
  casing: "snake_case",
  strict: true,
  verbose: true,
});
