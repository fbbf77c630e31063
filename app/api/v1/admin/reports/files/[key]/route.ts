// GET /api/v1/admin/reports/files/{key} — a photo kept with a report (staff only; issue 40, docs/adr/0164)
import { withAuth } from "@/lib/server/http/with-auth";
import { openReportFile } from "@/lib/server/services/reports/evidence";

export const GET = withAuth<{ key: string }>(async ({ ctx, params }) => {
  const file = await openReportFile({ ctx, input: params });
  // Evidence may be what nobody should keep: never cached, not even by the moderator's browser.
  const headers = new Headers({
    "content-type": file.contentType,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
  });
  if (file.size !== undefined) headers.set("content-length", String(file.size));
  return new Response(file.body, { headers });
});
