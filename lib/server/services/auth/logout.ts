import "server-only";
import { eq } from "drizzle-orm";
import { refreshTokens } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import { withTransaction, type ServiceCtx } from "../context";
import { revokeSession } from "./sessions";

/** Ends the viewer's session, or the one a refresh token belongs to when the access token has expired. */
export async function logout({ ctx, refreshToken }: { ctx: ServiceCtx; refreshToken?: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    let sessionId = ctx.viewer?.sessionId;
    if (!sessionId && refreshToken) {
      const [row] = await tx
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
        .limit(1);
      sessionId = row?.sessionId;
    }
    if (sessionId) await revokeSession(tx, sessionId);
  });
}
