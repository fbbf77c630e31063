// ANY /api and /api/<unknown> — the JSON 404 envelope for every method, never a page or an HTML redirect
import type { NextRequest } from "next/server";
import { NotFoundError } from "@/lib/server/http/errors";
import { requestIdOf } from "@/lib/server/http/request";
import { errorResponse } from "@/lib/server/http/with-auth";

function notFound(req: NextRequest): Response {
  const requestId = requestIdOf(req.headers);
  const res = errorResponse(new NotFoundError("common.apiNotFound"), req, requestId);
  res.headers.set("x-request-id", requestId);
  return res;
}

export { notFound as DELETE, notFound as GET, notFound as HEAD, notFound as OPTIONS, notFound as PATCH, notFound as POST, notFound as PUT };
