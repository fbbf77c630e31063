// No "server-only": the custom HTTP server (app-server.ts) logs the requests it answers itself.

/**
 * A path as it may be logged: a segment that looks like a mailed secret (the recovery link's
 * /auth/password/recovery/{secret}, 20+ URL-safe characters) is replaced, so logs never hold one.
 */
export function redactPath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => (/^[A-Za-z0-9_%-]{20,}$/.test(segment) ? ":secret" : segment))
    .join("/");
}
