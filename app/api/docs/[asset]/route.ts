// GET /api/docs/{scalar.js|init.js} — the reference viewer's scripts, from this origin (no CDN; docs/adr/0138)
import type { NextRequest } from "next/server";
import { NotFoundError } from "@/lib/server/http/errors";
import { requestIdOf } from "@/lib/server/http/request";
import { errorResponse } from "@/lib/server/http/with-auth";
import { referenceAsset } from "@/lib/server/openapi/reference-page";

export async function GET(req: NextRequest, { params }: { params: Promise<{ asset: string }> }): Promise<Response> {
  const res = await referenceAsset((await params).asset);
  return res ?? errorResponse(new NotFoundError(), req, requestIdOf(req.headers));
}
