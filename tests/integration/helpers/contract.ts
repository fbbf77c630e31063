// The contract test (issue 29 §2, docs/adr/0138): every answer a suite receives through call() is checked
// against the OpenAPI document — the operation and its status must be documented, and a JSON body must
// match the answer's schema (strict objects: a field added or renamed without the document fails).
import { readdirSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "@/lib/server/openapi/document";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
export type OperationKey = { path: string; method: string };

const API_V1 = path.resolve(__dirname, "../../../app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

let doc: Doc | null = null;
let ajv: Ajv2020 | null = null;
const validators = new Map<string, ValidateFunction>();
let handlers: Map<unknown, OperationKey> | null = null;

export function openApi(): Doc {
  doc ??= buildOpenApiDocument() as Doc;
  return doc;
}

/** Every route handler of app/api/v1 with the document's path template ({id} for [id]) and its method. */
export async function v1Operations(): Promise<{ key: OperationKey; handler: unknown }[]> {
  const files = readdirSync(API_V1, { recursive: true, encoding: "utf8" }).filter((f) => path.basename(f) === "route.ts").sort();
  const out: { key: OperationKey; handler: unknown }[] = [];
  for (const file of files) {
    const dir = path.dirname(file) === "." ? "" : path.dirname(file);
    const template = "/api/v1" + (dir ? "/" + dir.split(path.sep).map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/") : "");
    const mod = (await import(/* @vite-ignore */ path.join(API_V1, file))) as Record<string, unknown>;
    for (const m of METHODS) if (typeof mod[m] === "function") out.push({ key: { path: template, method: m.toLowerCase() }, handler: mod[m] });
  }
  return out;
}

export async function operationOf(handler: unknown): Promise<OperationKey | undefined> {
  if (!handlers) {
    handlers = new Map();
    for (const { key, handler: h } of await v1Operations()) handlers.set(h, key);
  }
  return handlers.get(handler);
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** Throws with the operation, the status and the schema errors when an answer is not what the document says. */
export function assertDocumented(op: OperationKey, status: number, contentType: string | null, body: unknown): void {
  const d = openApi();
  const operation = d.paths[op.path]?.[op.method];
  const where = `${op.method.toUpperCase()} ${op.path} → ${status}`;
  if (!operation) throw new Error(`Contract: ${op.method.toUpperCase()} ${op.path} is not in the OpenAPI document`);
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`Contract: ${where} is not a documented status (documented: ${Object.keys(operation.responses).join(", ")}); body ${JSON.stringify(body)?.slice(0, 300)}`);
  if (!contentType?.includes("json") || !response.content?.["application/json"]) return;
  const ref = `openapi#/${pointer("paths", op.path, op.method, "responses", String(status), "content", "application/json", "schema")}`;
  let validate = validators.get(ref);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema(d as object, "openapi");
    }
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `  ${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` '${String(e.params.additionalProperty)}'` : ""}`);
    throw new Error(`Contract: the answer of ${where} does not match the OpenAPI document:\n${errors.join("\n")}\nbody: ${JSON.stringify(body)?.slice(0, 600)}`);
  }
}
