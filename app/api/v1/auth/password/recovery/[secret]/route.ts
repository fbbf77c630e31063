// GET  /api/v1/auth/password/recovery/{secret} — redirects to the page /change-password/{secret}
// POST /api/v1/auth/password/recovery/{secret} — {password} sets it and signs the account out everywhere
import { readJson } from "@/lib/server/http/request";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { recoveryPagePath, resetPasswordWithLink } from "@/lib/server/services/auth/recovery";
import { recoverySetInput } from "@/lib/validation/auth";

type Params = { secret: string };

export const GET = withOptionalAuth<Params>(async ({ params }) => {
  // A relative Location works behind any host name; the page itself checks the link when used.
  return new Response(null, { status: 303, headers: { location: recoveryPagePath(params.secret), "cache-control": "no-store" } });
});

export const POST = withOptionalAuth<Params>(async ({ req, ctx, params }) => {
  const input = await readJson(req, recoverySetInput);
  await resetPasswordWithLink({ ctx, secret: params.secret, input });
  return Response.json({ ok: true });
});
