// GET /api/v1/account/export — the state of my latest data archive and, when ready, its link; POST — asks for a new one (202), once a day (docs/adr/0127)
import { TIME_ZONE_COOKIE } from "@/lib/i18n/time-zone";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { getAccountExport, requestAccountExport } from "@/lib/server/services/account-export/requests";

export const GET = withAuth(async ({ ctx }) => json(await getAccountExport({ ctx }), { headers: { "cache-control": "private, no-store" } }));

export const POST = withAuth(async ({ req, ctx }) =>
  json(await requestAccountExport({ ctx, input: { timeZone: req.cookies.get(TIME_ZONE_COOKIE)?.value } }), { status: 202 }),
);
