// Security headers (docs/adr/0042). No "server-only": the custom server (scripts/next-server.ts) sets
// the static ones on every response; proxy.ts sets the per-request CSP of pages.

/**
 * The CSP of a page: scripts only with this request's nonce (Next puts it on its own scripts and on
 * next-themes' inline script, 'strict-dynamic' lets them load the chunks), no plugins, no framing, no
 * <base> or form hijacking. Inline style attributes stay allowed (React components set them); user
 * HTML is sanitised anyway, the CSP is the second line.
 */
export function pageCsp(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' blob:",
    // The service worker (/sw.js) and the manifest: 'strict-dynamic' above would refuse a worker by 'self'.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Every response (pages, API, files): pages add their fuller CSP on top of this one. */
export function staticSecurityHeaders(publicUrl: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  if (publicUrl?.startsWith("https://")) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** A random nonce per page request (128 bits, base64). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}
