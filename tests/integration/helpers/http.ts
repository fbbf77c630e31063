import { NextRequest } from "next/server";
import { assertDocumented, operationOf } from "./contract";

type Handler<P> = (req: NextRequest, route: { params: Promise<P> }) => Promise<Response>;

/** Calls a route handler the way Next would, with an optional bearer token, cookie and JSON body. */
export async function call<P = Record<string, never>>(
  handler: Handler<P>,
  opts: {
    method?: string;
    path?: string;
    body?: unknown;
    rawBody?: string;
    token?: string;
    cookie?: string;
    headers?: Record<string, string>;
    params?: P;
  } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new NextRequest(new URL(opts.path ?? "/api/v1/test", "http://localhost:3000"), {
    method: opts.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const res = await handler(req, { params: Promise.resolve((opts.params ?? {}) as P) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  // Issue 29: every answer of a documented route is checked against the OpenAPI document (helpers/contract.ts).
  const op = await operationOf(handler);
  if (op) assertDocumented(op, res.status, res.headers.get("content-type"), parsed);
  return { status: res.status, body: parsed, headers: res.headers };
}
