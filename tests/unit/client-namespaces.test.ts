import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMESPACES, pickNamespaces, type ClientPart } from "@/lib/i18n/client-namespaces";
import { ROOT, routeFiles, scanClientNamespaces } from "../support/client-namespaces-scan";

// docs/adr/0092: each part of the app gives its client components only the namespaces they translate. A
// branch that adds a translated namespace (or a schema message key) to a client component under a part
// fails here until the part's list names it, instead of showing the key on the page.

const APP = path.join(ROOT, "app");
const ru = JSON.parse(readFileSync(path.join(ROOT, "messages/ru.json"), "utf8")) as Record<string, unknown>;
const en = JSON.parse(readFileSync(path.join(ROOT, "messages/en.json"), "utf8")) as Record<string, unknown>;
const parts = Object.keys(CLIENT_NAMESPACES) as ClientPart[];

/** Files Next renders as React components (API routes, sitemaps and helpers are not). */
const RENDERED = /^(page|layout|error|loading|not-found|template|default)\.tsx$/;
const renderedFiles = routeFiles(APP).filter((f) => RENDERED.test(path.basename(f)) && !f.startsWith(path.join(APP, "api") + path.sep));
const keyOf = (file: string) => path.relative(APP, file).replace(/\.tsx$/, "");

/** The part whose provider wraps a file: its own, else the nearest layout above it that has one. */
function partOf(file: string): ClientPart | null {
  const own = keyOf(file);
  if (own in CLIENT_NAMESPACES) return own as ClientPart;
  for (let dir = path.dirname(file); dir.startsWith(APP); dir = path.dirname(dir)) {
    const layout = keyOf(path.join(dir, "layout.tsx"));
    if (layout in CLIENT_NAMESPACES) return layout as ClientPart;
  }
  return null;
}

describe("client message namespaces", () => {
  it("gives every rendered file of app/ to a part", () => {
    expect(renderedFiles.filter((f) => partOf(f) === null).map(keyOf)).toEqual([]);
  });

  it.each(parts)("%s: its file renders its provider", (part) => {
    const source = readFileSync(path.join(APP, `${part}.tsx`), "utf8");
    expect(source.includes(`withClientMessages("${part}"`) || source.includes(`<ClientMessages of="${part}"`)).toBe(true);
  });

  it.each(parts)("%s: lists every namespace its client components translate", (part) => {
    const files = renderedFiles.filter((f) => partOf(f) === part);
    const scan = scanClientNamespaces(files, ru);
    expect(scan.unresolved).toEqual([]);
    const missing = [...scan.namespaces].filter((ns) => !(CLIENT_NAMESPACES[part] as readonly string[]).includes(ns));
    expect(missing, `add to CLIENT_NAMESPACES["${part}"]`).toEqual([]);
  });

  it.each(parts)("%s: lists only namespaces that exist in both languages", (part) => {
    for (const ns of CLIENT_NAMESPACES[part]) {
      expect(ns in ru, `${ns} in ru.json`).toBe(true);
      expect(ns in en, `${ns} in en.json`).toBe(true);
    }
  });

  it("picks the listed namespaces and nothing else", () => {
    expect(pickNamespaces({ a: { x: "1" }, b: { y: "2" }, c: "3" }, ["a", "c", "missing"])).toEqual({ a: { x: "1" }, c: "3" });
  });

  it("finds the namespaces of schema keys and of templates in client code", () => {
    // The registration form translates validation keys of its schema without a namespace, the relation
    // buttons `relation.${label}`: both must be found, or the form would show raw keys.
    const scan = scanClientNamespaces([path.join(ROOT, "components/auth/registration-form.tsx"), path.join(ROOT, "components/friends/relation-actions.tsx")], ru);
    expect([...scan.namespaces]).toEqual(expect.arrayContaining(["validation", "relation", "friendErrors", "identity"]));
  });
});
