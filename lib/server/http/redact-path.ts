// No "server-only": the custom HTTP server (app-server.ts) logs the requests it answers itself.

const LONG_RUN = /[A-Za-z0-9_%-]{20}/;

/**
 * A path as it may be logged: a segment that looks like a mailed secret (the recovery link's
 * /auth/password/recovery/{secret}, 20+ URL-safe characters) is replaced, so logs never hold one.
 */
export function redactPath(pathname: string): string {
  // Nearly every path has no run of 20 such characters at all: then no segment can be one (issue 28).
  if (!LONG_RUN.test(pathname)) return pathname;
  return pathname
    .split("/")
    .map((segment) => (/^[A-Za-z0-9_%-]{20,}$/.test(segment) ? ":secret" : segment))
    .join("/");
}
