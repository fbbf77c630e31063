// PUT /api/v1/auth/email — {secret} from the link mailed to the new address: applies the change → {email}
import { readJson } from "@/lib/server/http/request";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { confirmEmailChange } from "@/lib/server/services/auth/email-change";
import { emailChangeConfirmInput } from "@/lib/validation/auth";

export const PUT = withOptionalAuth(async ({ req, ctx }) => {
  const input = await readJson(req, emailChangeConfirmInput);
  return Response.json(await confirmEmailChange({ ctx, input }));
});
