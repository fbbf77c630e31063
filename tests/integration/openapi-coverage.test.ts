import { describe, expect, it } from "vitest";
import { openApi, v1Operations } from "./helpers/contract";

// Issue 29 §2: the document and the routes describe the same API — every exported method of every
// app/api/v1/**/route.ts is an operation of the OpenAPI document, and every operation has a route.
describe("the OpenAPI document covers every route of app/api/v1", () => {
  it("has an operation for each route method and a route for each operation", async () => {
    const routes = new Set((await v1Operations()).map(({ key }) => `${key.method.toUpperCase()} ${key.path}`));
    const documented = new Set(
      Object.entries(openApi().paths).flatMap(([p, ops]) => Object.keys(ops).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    const undocumented = [...routes].filter((r) => !documented.has(r)).sort();
    const withoutRoute = [...documented].filter((d) => !routes.has(d)).sort();
    expect({ undocumented, withoutRoute }).toEqual({ undocumented: [], withoutRoute: [] });
    expect(routes.size).toBeGreaterThan(90);
  });

  it("gives every operation a summary, a description with who may call it, and an error envelope for each refusal", () => {
    for (const [p, ops] of Object.entries(openApi().paths)) {
      for (const [m, op] of Object.entries(ops) as [string, { summary?: string; description?: string; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }][]) {
        expect(op.summary, `${m} ${p}`).toBeTruthy();
        expect(op.description, `${m} ${p}`).toContain("Who may call");
        for (const [status, r] of Object.entries(op.responses)) {
          if (Number(status) >= 400) expect(r.content?.["application/json"]?.schema?.$ref, `${m} ${p} ${status}`).toBe("#/components/schemas/Error");
        }
      }
    }
  });
});
