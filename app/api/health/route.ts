// GET /api/health — the process is alive (no dependency is checked).
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
