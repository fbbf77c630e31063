import "server-only";
import { decodeJwt } from "jose";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { ACCESS_COOKIE } from "@/lib/server/auth/tokens";
import { resolveViewer, type Viewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { getViewerSummary, readAccountSummary, type AccountSummary } from "@/lib/server/services/accounts/viewer-summary";
import { loginHref, routeByName, type RouteName } from "@/lib/routes";

export type CurrentViewer = { viewer: Viewer; summary: AccountSummary };

/** The account id an access token names, read without checking it: only to start a read early. */
function claimedAccountId(token: string): number | null {
  try {
    const id = Number(decodeJwt(token).sub);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in account of this page render (the proxy has already renewed an expired token), read
 * once per request however many layouts and pages ask. The summary of the account the token names is
 * read beside the session check rather than after it (one round trip less before anything else of the
 * page can start, docs/adr/0093); it is used only when the check confirms that very account.
 */
export const currentViewer = cache(async (): Promise<CurrentViewer | null> => {
  const db = getDb();
  const token = (await cookies()).get(ACCESS_COOKIE)?.value;
  if (!token) return null;
  const claimed = claimedAccountId(token);
  const [viewer, early] = await Promise.all([
    resolveViewer(db, token, env().AUTH_SECRET),
    claimed ? readAccountSummary(db, claimed) : null,
  ]);
  if (!viewer) return null;
  const summary = early && early.id === viewer.id ? early : await getViewerSummary({ ctx: { viewer, db, requestId: "page" } });
  return summary ? { viewer, summary } : null;
});

/**
 * For a protected page: the viewer, or a redirect to login naming this route. The proxy already did
 * this from the token; this catches a token whose session was revoked meanwhile.
 */
export async function requireViewer(name: RouteName, params: Record<string, string> = {}): Promise<CurrentViewer> {
  const current = await currentViewer();
  if (current) return current;
  redirect(loginHref({ route: routeByName(name)!, params }));
}
