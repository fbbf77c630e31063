import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { BadRequestError, ServiceError } from "./errors";

export const DEFAULT_JSON_LIMIT = 64 * 1024;

/** A request id from a trusted upstream, or a new one. */
export function requestIdOf(headers: Headers): string {
  const given = headers.get("x-request-id");
  return given && /^[\w.-]{8,128}$/.test(given) ? given : randomUUID();
}

/**
 * The client's address, as our own HTTP server derived it from the TCP peer and TRUST_PROXY
 * (lib/server/http/app-server.ts). That server overwrites the header on every request, so a client
 * cannot choose it; X-Forwarded-For is never read here.
 */
export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_ADDRESS_HEADER) || "unknown";
}

/** Reads a JSON body no larger than `limit` bytes and parses it with the shared schema. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S, limit = DEFAULT_JSON_LIMIT): Promise<z.infer<S>> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ServiceError("payload_too_large", `Body larger than ${limit} bytes`);
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ServiceError("unsupported_media_type", "Expected an application/json body");
  }
  const buf = await readLimited(req, limit);
  let data: unknown;
  try {
    data = buf.length ? JSON.parse(new TextDecoder().decode(buf)) : {};
  } catch {
    throw new BadRequestError("Malformed JSON body");
  }
  return schema.parse(data);
}

/** A body read no further than `limit` bytes: past it, 413 (payload_too_large) and the rest is never read. */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ServiceError("payload_too_large", `Body larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Query parameters as a plain object (the last value wins) for zod parsing. */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams.entries());
}

/** A JSON body that may be absent (no body and no content type → {}); when present it is read as readJson does. */
export async function readOptionalJson(req: Request, limit = DEFAULT_JSON_LIMIT): Promise<unknown> {
  const declared = req.headers.get("content-length");
  if (!req.headers.get("content-type") && (declared === null || declared === "0")) return {};
  return readJson(req, z.unknown(), limit);
}
