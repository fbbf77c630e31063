// GET | PUT /api/v1/account/privacy — the viewer's privacy settings (docs/adr/0125); PUT changes any of the four
import { readOptionalJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { getPrivacySettings, updatePrivacySettings } from "@/lib/server/services/privacy/settings";

export const GET = withAuth(async ({ ctx }) => Response.json(await getPrivacySettings({ ctx })));

// The service parses (a bad value is a 400 with per-field issues, ADR 0125; the conventions allow 400 or 422).
export const PUT = withAuth(async ({ req, ctx }) => Response.json(await updatePrivacySettings({ ctx, input: await readOptionalJson(req) })));
