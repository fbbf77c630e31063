// GET /api/docs/{scalar.js|init.js} — the reference viewer's scripts, from this origin (no CDN; docs/adr/0138)
import { referenceAsset } from "@/lib/server/openapi/reference-page";

export async function GET(_req: Request, { params }: { params: Promise<{ asset: string }> }): Promise<Response> {
  const res = await referenceAsset((await params).asset);
  return res ?? Response.json({ error: { code: "not_found", message: "Not found" }, requestId: "" }, { status: 404 });
}
