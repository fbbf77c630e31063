import "server-only";
import { sql } from "drizzle-orm";
import { ForbiddenError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { COMMUNITY_ERRORS, communityIdParams, communityNotificationsInput, type CommunityDto, type CommunityNotificationsInput } from "@/lib/validation/communities";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { lockLiveCommunity, readCommunityRow, requireLiveViewer, roleOf, toCommunityDto } from "./access";

// A member's notifications of a community (issue 42): "notify me of new posts" (community_members.notify_posts),
// read by the COMMUNITY_POST fan-out (notifications/producers.ts#notifyCommunityPost).

/** PUT communities/{id}/notifications {posts} — a member switches the notification of each new post on its wall on or off. */
export async function setCommunityNotifications({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } & CommunityNotificationsInput }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id } = communityIdParams.parse({ id: input.id });
  const { posts } = communityNotificationsInput.parse({ posts: input.posts });
  await consumeAccountLimits(["communityChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const c = await lockLiveCommunity(tx, viewer.id, id);
    if (roleOf(c) === null) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    await tx.execute(sql`update community_members set notify_posts = ${posts} where community_id = ${id} and account_id = ${viewer.id}`);
    return toCommunityDto((await readCommunityRow(tx, viewer.id, id))!);
  });
}
