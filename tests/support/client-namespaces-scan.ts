// Which message namespaces the client components of a part of the app translate (docs/adr/0092).
// Walks the import graph from a route group's files (pages, layouts, error and loading files), marking a
// module as client code when it says "use client" or is imported from client code, and collects, from client
// modules only: the namespace of every `useTranslations("ns…")`, and every string that is a message key
// ("validation.email", or the head of a template such as `relation.${x}`), which is how keys translated
// without a namespace (schema and error messages) reach a translator.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

type Messages = Record<string, unknown>;

export type Scan = {
  /** Top-level namespaces the client modules need. */
  namespaces: Set<string>;
  /** Client modules, relative to the project root, and what each one brought. */
  clientModules: Map<string, Set<string>>;
  /** `useTranslations(x)` with an argument that is not a string literal: cannot be checked. */
  unresolved: string[];
};

const EXTENSIONS = [".tsx", ".ts", "/index.tsx", "/index.ts"];

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null; // a package: its translations are not ours
  if (/\.(css|svg|png|json)$/.test(spec)) return null;
  for (const ext of ["", ...EXTENSIONS]) {
    const file = base + ext;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  throw new Error(`${path.relative(ROOT, from)}: cannot resolve "${spec}"`);
}

/** Static runtime imports and re-exports (`import type` and `export type` carry no code), as written. */
export function staticImportSpecs(source: string): string[] {
  const specs: string[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']/g;
  for (const m of source.matchAll(statement)) if (!m[2]) specs.push(m[3]);
  return specs;
}

/** A project file an import names (null for a package or an asset). */
export function projectFile(from: string, spec: string): string | null {
  return resolveImport(from, spec);
}

/** Runtime imports (static, re-exports, dynamic) of project files. */
function importsOf(file: string, source: string): string[] {
  const specs = staticImportSpecs(source);
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) specs.push(m[1]);
  return specs.map((s) => resolveImport(file, s)).filter((f): f is string => f !== null);
}

const USE_CLIENT = /^(?:\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*["']use client["']/;
/**
 * A module of server functions ("use server"): client code that imports it gets references to call, not
 * its code, so nothing it imports reaches the browser (components/post/card-pages-action.tsx, ADR 0150).
 */
export const USE_SERVER = /^(?:\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*["']use server["']/;

function hasPath(messages: Messages, key: string): boolean {
  let node: unknown = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

/** What one client module translates. */
function namespacesIn(source: string, messages: Messages, unresolved: string[], name: string): Set<string> {
  const found = new Set<string>();
  for (const m of source.matchAll(/\buseTranslations\(\s*([^)]*?)\s*\)/g)) {
    const arg = m[1];
    if (arg === "") continue;
    const literal = /^["']([^"'.]+)(?:\.[^"']*)?["']$/.exec(arg);
    if (literal) found.add(literal[1]);
    else unresolved.push(`${name}: useTranslations(${arg})`);
  }
  // A whole key in quotes, or the fixed head of a template literal.
  for (const m of source.matchAll(/["'`]([a-zA-Z]+)((?:\.[a-zA-Z0-9_]+)*)(\.\$\{|["'`])/g)) {
    const [, ns, rest, end] = m;
    if (!(ns in messages)) continue;
    if (end === ".${" || (rest && hasPath(messages, ns + rest))) found.add(ns);
  }
  return found;
}

/** The namespaces the client code reachable from `entries` translates. */
export function scanClientNamespaces(entries: string[], messages: Messages): Scan {
  const scan: Scan = { namespaces: new Set(), clientModules: new Map(), unresolved: [] };
  const seen = new Set<string>();
  const queue: { file: string; client: boolean }[] = entries.map((file) => ({ file, client: false }));
  while (queue.length > 0) {
    const { file, client: parentClient } = queue.shift()!;
    const source = readFileSync(file, "utf8");
    if (parentClient && USE_SERVER.test(source)) continue;
    const client = parentClient || USE_CLIENT.test(source);
    const key = `${client ? "c" : "s"}:${file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (client) {
      const name = path.relative(ROOT, file);
      const found = namespacesIn(source, messages, scan.unresolved, name);
      scan.clientModules.set(name, found);
      for (const ns of found) scan.namespaces.add(ns);
    }
    for (const dep of importsOf(file, source)) queue.push({ file: dep, client });
  }
  return scan;
}

/** Every .ts/.tsx file under a directory of app/ (a route group's own files). */
export function routeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...routeFiles(full));
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * Every chain of static imports from `entries` (paths from the root) to a module whose specifier `matches`,
 * as "entry → … → spec". Dynamic `import()` (next/dynamic) is not followed: that is what loads on intent.
 */
export function staticImportChains(entries: string[], matches: (spec: string) => boolean): string[] {
  const chains: string[] = [];
  const seen = new Set<string>();
  const queue = entries.map((entry) => ({ file: path.join(ROOT, entry), chain: [entry] }));
  while (queue.length > 0) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImportSpecs(readFileSync(file, "utf8"))) {
      if (matches(spec)) chains.push([...chain, spec].join(" → "));
      const dep = projectFile(file, spec);
      if (dep && !dep.endsWith(".css")) queue.push({ file: dep, chain: [...chain, path.relative(ROOT, dep)] });
    }
  }
  return chains;
}

/** The entry files of the pages whose first load the bench measures (app/layout, the group's layout, the page). */
export const MEASURED_PAGES: Record<string, string[]> = {
  feed: ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/page.tsx"],
  "/profile": ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/profile/page.tsx"],
  dialog: ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/im/[activeDialogId]/page.tsx"],
  "/login": ["app/layout.tsx", "app/(form)/layout.tsx", "app/(form)/login/page.tsx"],
  "/search": ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/search/page.tsx"],
};

/**
 * Every chain of static imports from `entries` that runs in the browser — at or below a "use client"
 * module — to an import `hit` picks, as "entry → … → hit" (the project file's path, or the package's
 * specifier). A hit is not followed further. Server functions imported by client code ("use server")
 * stay on the server: only their references reach the browser, so the walk stops there.
 */
export function clientImportChains(entries: string[], hit: (spec: string, file: string | null) => boolean): string[] {
  const chains: string[] = [];
  const seen = new Set<string>();
  const queue = entries.map((entry) => ({ file: path.join(ROOT, entry), chain: [entry], client: false }));
  while (queue.length > 0) {
    const { file, chain, client: above } = queue.shift()!;
    const source = readFileSync(file, "utf8");
    if (above && USE_SERVER.test(source)) continue;
    const client = above || USE_CLIENT.test(source);
    const key = `${client}:${file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const spec of staticImportSpecs(source)) {
      const dep = projectFile(file, spec);
      if (dep?.endsWith(".css")) continue;
      const next = [...chain, dep ? path.relative(ROOT, dep) : spec];
      if (client && hit(spec, dep)) chains.push(next.join(" → "));
      else if (dep) queue.push({ file: dep, chain: next, client });
    }
  }
  return chains;
}
