import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { ACCESS_COOKIE } from "@/lib/server/auth/tokens";
import { resolveViewer, type Viewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { getViewerSummary, type AccountSummary } from "@/lib/server/services/accounts/viewer-summary";
import { loginHref, routeByName, type RouteName } from "@/lib/routes";

export type CurrentViewer = { viewer: Viewer; summary: AccountSummary };

/**
 * The signed-in account of this page render (the proxy has already renewed an expired token), read
 * once per request however many layouts and pages ask.
 */
export const currentViewer = cache(async (): Promise<CurrentViewer | null> => {
  const db = getDb();
  const token = (await cookies()).get(ACCESS_COOKIE)?.value;
  const viewer = await resolveViewer(db, token, env().AUTH_SECRET);
  if (!viewer) return null;
  const summary = await getViewerSummary({ ctx: { viewer, db, requestId: "page" } });
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
