// GET | PUT /api/v1/notifications/settings — the seven switches; PUT {notificationType, enable} flips one
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { getNotificationSettings, setNotificationSetting } from "@/lib/server/services/notifications/settings";
import { notificationSettingInput } from "@/lib/validation/account";

export const GET = withAuth(async ({ ctx }) => Response.json(await getNotificationSettings({ ctx })));

export const PUT = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, notificationSettingInput);
  return Response.json(await setNotificationSetting({ ctx, input }));
});
