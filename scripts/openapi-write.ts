// Writes docs/api/openapi.json (and asyncapi.json), the English documents (docs/adr/0167), from the code: `node --conditions=react-server --import tsx scripts/openapi-write.ts`.
// The snapshot test (tests/unit/openapi-snapshot.test.ts) fails with the diff until this is run and committed.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildAsyncApiDocument } from "@/lib/server/openapi/asyncapi";
import { buildOpenApiDocument } from "@/lib/server/openapi/document";

const dir = path.resolve(import.meta.dirname, "../docs/api");
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(buildOpenApiDocument(), null, 2) + "\n");
writeFileSync(path.join(dir, "asyncapi.json"), JSON.stringify(buildAsyncApiDocument(), null, 2) + "\n");
console.log("wrote docs/api/openapi.json and docs/api/asyncapi.json");
