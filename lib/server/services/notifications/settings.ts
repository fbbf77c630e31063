import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { notificationSettings } from "@/db/schema";
import { ForbiddenError } from "@/lib/server/http/errors";
import { NOTIFICATION_SETTING_FIELDS, notificationSettingInput } from "@/lib/validation/account";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";

/** The seven switches of spec section 3. */
export type NotificationSettingsDto = {
  enablePost: boolean;
  enablePostComment: boolean;
  enableCommentComment: boolean;
  enableFriendRequest: boolean;
  enableMessage: boolean;
  enableFriendBirthday: boolean;
  /** Issue 26: a report of mine was resolved. */
  enableReportResolved: boolean;
  /** Issue 27: someone shared a post of mine. */
  enableRepost: boolean;
  /** Issue 41: someone added me to a group conversation. */
  enableGroupAdded: boolean;
  /** Issue 42: someone asked to join a closed community I own or administer. */
  enableCommunityRequest: boolean;
  /** Issue 42: my request to join a community was accepted. */
  enableCommunityAccepted: boolean;
  /** Issue 42: a member invited me to a community. */
  enableCommunityInvitation: boolean;
  /** Issue 42: new posts of the communities whose posts I asked to hear of. */
  enableCommunityPost: boolean;
  enableSendEmailMessage: boolean;
};

const columns = {
  enablePost: notificationSettings.enablePost,
  enablePostComment: notificationSettings.enablePostComment,
  enableCommentComment: notificationSettings.enableCommentComment,
  enableFriendRequest: notificationSettings.enableFriendRequest,
  enableMessage: notificationSettings.enableMessage,
  enableFriendBirthday: notificationSettings.enableFriendBirthday,
  enableReportResolved: notificationSettings.enableReportResolved,
  enableRepost: notificationSettings.enableRepost,
  enableGroupAdded: notificationSettings.enableGroupAdded,
  enableCommunityRequest: notificationSettings.enableCommunityRequest,
  enableCommunityAccepted: notificationSettings.enableCommunityAccepted,
  enableCommunityInvitation: notificationSettings.enableCommunityInvitation,
  enableCommunityPost: notificationSettings.enableCommunityPost,
  enableSendEmailMessage: notificationSettings.enableSendEmailMessage,
};

/**
 * An account's switches; the row (with the schema's defaults) is created the first time anyone
 * asks, so every later reader — the notification fan-out included — finds one.
 */
export async function readNotificationSettings(db: DbOrTx, accountId: number): Promise<NotificationSettingsDto> {
  const select = () => db.select(columns).from(notificationSettings).where(eq(notificationSettings.accountId, accountId));
  const [found] = await select();
  if (found) return found;
  await db.insert(notificationSettings).values({ accountId }).onConflictDoNothing();
  const [created] = await select();
  return created;
}

/** GET notifications/settings */
export async function getNotificationSettings({ ctx }: { ctx: ServiceCtx }): Promise<NotificationSettingsDto> {
  const viewer = requireViewer(ctx);
  return readNotificationSettings(ctx.tx ?? ctx.db, viewer.id);
}

/** PUT notifications/settings — flips one switch ({notificationType, enable}) and answers all seven. */
export async function setNotificationSetting({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<NotificationSettingsDto> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const { notificationType, enable } = notificationSettingInput.parse(input);
  const field = NOTIFICATION_SETTING_FIELDS[notificationType];
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx
      .insert(notificationSettings)
      .values({ accountId: viewer.id, [field]: enable })
      .onConflictDoUpdate({ target: notificationSettings.accountId, set: { [field]: enable, updatedAt: sql`now()` } })
      .returning(columns);
    return row;
  });
}
