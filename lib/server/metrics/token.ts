// Who may read the metrics (docs/adr/0140): only a caller with `Authorization: Bearer $METRICS_TOKEN`.
// Unset, the metrics do not exist (404); a missing or wrong token gets 401. The comparison takes the
// same time whatever the token: both sides are hashed to 32 bytes and compared with timingSafeEqual.
import { createHash, timingSafeEqual } from "node:crypto";

export type MetricsAccess = "disabled" | "denied" | "allowed";

/** Read at each request (not cached with the other settings), so a test can set and unset it. */
export function metricsToken(): string | undefined {
  const token = process.env.METRICS_TOKEN?.trim();
  return token ? token : undefined;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export function metricsAccess(authorization: string | null | undefined, token = metricsToken()): MetricsAccess {
  if (!token) return "disabled";
  const match = /^Bearer\s+(\S{1,1024})\s*$/i.exec(authorization ?? "");
  const given = match?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0 ? "allowed" : "denied";
}
