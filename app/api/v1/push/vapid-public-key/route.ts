// GET /api/v1/push/vapid-public-key — the applicationServerKey a browser subscribes with
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { pushPublicKey } from "@/lib/server/services/push/subscriptions";

export const GET = withAuth(async () => json(pushPublicKey()));
