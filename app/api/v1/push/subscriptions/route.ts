// GET /api/v1/push/subscriptions — the viewer's devices and the VAPID public key; POST {endpoint, keys:{p256dh, auth}} — subscribes this browser (201 new, 200 known)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listPushDevices, subscribePush } from "@/lib/server/services/push/subscriptions";
import { pushSubscriptionInput } from "@/lib/validation/push";

export const GET = withAuth(async ({ ctx }) => json(await listPushDevices({ ctx })));

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await readJson(req, pushSubscriptionInput);
  const { device, created } = await subscribePush({ ctx, input, userAgent: req.headers.get("user-agent") });
  return json(device, { status: created ? 201 : 200 });
});
