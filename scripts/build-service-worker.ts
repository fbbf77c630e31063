// Bundles the service worker into a build directory: `node --import tsx scripts/build-service-worker.ts <distDir>`.
// next.config.ts runs it after every production compile (docs/adr/0119).
import { buildServiceWorker } from "../lib/pwa/build-service-worker";

await buildServiceWorker({ projectDir: process.cwd(), distDir: process.argv[2] ?? ".next" });
