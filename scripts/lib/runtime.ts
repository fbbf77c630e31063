// Imported first by every entry script: Node.js version check and telemetry off (lib/server/runtime.ts).
import { prepareRuntime } from "../../lib/server/runtime";

prepareRuntime();
