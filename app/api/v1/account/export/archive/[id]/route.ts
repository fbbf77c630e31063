// GET /api/v1/account/export/archive/{id} — my data archive (a ZIP), for me only; signed out, a browser is sent to sign in first (docs/adr/0127)
import { NextResponse } from "next/server";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { archiveResponse, signInFirst } from "@/lib/server/http/archive-response";
import { openAccountExportArchive } from "@/lib/server/services/account-export/requests";

export const GET = withOptionalAuth<{ id: string }>(async ({ req, ctx, params }) => {
  if (!ctx.viewer && req.headers.get("sec-fetch-mode") === "navigate") return NextResponse.redirect(new URL(signInFirst(), req.url), 303);
  return archiveResponse(await openAccountExportArchive({ ctx, input: params }));
});
