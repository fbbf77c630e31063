import "server-only";
// GET /api/docs — the API reference (issue 29, docs/adr/0138): Scalar's standalone viewer served from
// node_modules (no CDN, no fonts from elsewhere, no telemetry, no request proxy), in Krug's light and dark
// palettes. The page carries no inline script (its CSP allows scripts from this origin only): init.js reads
// the configuration from #app's data attribute and Krug's stored theme (next-themes' localStorage "theme").
import { readFile } from "node:fs/promises";
import path from "node:path";

/** Krug's palettes (app/globals.css) mapped onto Scalar's variables. */
const CSS = `
.light-mode {
  --scalar-background-1: #ffffff; --scalar-background-2: #f5f6f8; --scalar-background-3: #ebedf0; --scalar-background-accent: #e6efff;
  --scalar-color-1: #1f2124; --scalar-color-2: #5d6773; --scalar-color-3: #646e7a; --scalar-color-accent: #2a6fd1;
  --scalar-border-color: #dce1e6; --scalar-link-color: #2a5885;
}
.dark-mode {
  --scalar-background-1: #1c1d20; --scalar-background-2: #25272b; --scalar-background-3: #2d3034; --scalar-background-accent: #1e2a3b;
  --scalar-color-1: #e3e5e8; --scalar-color-2: #a4a9b0; --scalar-color-3: #8a9098; --scalar-color-accent: #8cb8f2;
  --scalar-border-color: #2f3236; --scalar-link-color: #8cb8f2;
}
:root { --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; --scalar-font-code: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; --scalar-radius: 8px; --scalar-radius-lg: 12px; }
`;

const CONFIG = {
  theme: "none",
  customCss: CSS,
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: "json",
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
};

/** Reads Krug's stored theme, then starts the viewer. Served as /api/docs/init.js. */
const INIT_JS = `(function () {
  var app = document.getElementById("app");
  var config = JSON.parse(app.getAttribute("data-configuration"));
  var stored = null;
  try { stored = localStorage.getItem("theme"); } catch (e) {}
  var dark = stored === "dark" || ((stored === null || stored === "system") && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  config.forceDarkModeState = dark ? "dark" : "light";
  document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
  window.Scalar.createApiReference("#app", config);
})();
`;

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function referencePage(lang: "ru" | "en"): Response {
  const title = lang === "ru" ? "Справочник API Круга" : "Krug API reference";
  const html = `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
</head>
<body>
<div id="app" data-configuration="${escapeAttr(JSON.stringify({ url: `/api/v1/openapi.json?lang=${lang}`, ...CONFIG }))}"></div>
<script src="/api/docs/scalar.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;
  return new Response(html, {
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP, "cache-control": "public, max-age=300" },
  });
}

let bundle: Promise<Buffer> | null = null;

/** The viewer's files: the standalone bundle from node_modules and the small start script. */
export async function referenceAsset(name: string): Promise<Response | null> {
  const js = { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" };
  if (name === "init.js") return new Response(INIT_JS, { headers: js });
  if (name !== "scalar.js") return null;
  bundle ??= readFile(path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js"));
  return new Response(new Uint8Array(await bundle), { headers: js });
}
