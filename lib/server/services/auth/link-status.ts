import "server-only";
import type { ServiceCtx } from "../context";
import { findLink } from "./links";

/**
 * Whether a mailed password link (recovery or change) still works, without spending it: the page of
 * the link shows "expired, request a new one" at once instead of after the new password is typed.
 */
export async function isPasswordLinkAlive({
  ctx,
  kind,
  secret,
}: {
  ctx: ServiceCtx;
  kind: "PASSWORD_RECOVERY" | "PASSWORD_CHANGE";
  secret: string;
}): Promise<boolean> {
  return Boolean(await findLink(ctx.tx ?? ctx.db, kind, secret));
}
