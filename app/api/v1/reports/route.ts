// POST /api/v1/reports {targetType, targetId, category, comment?, block?} — report a post, comment, message or account (issue 26)
import { readOptionalJson } from "@/lib/server/http/request";
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { createReport } from "@/lib/server/services/reports/reports";

export const POST = withAuth(async ({ req, ctx }) => json(await createReport({ ctx, input: await readOptionalJson(req) }), { status: 201 }));
