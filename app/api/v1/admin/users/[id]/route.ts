// GET /api/v1/admin/users/{id} — a user's card: counts, recent activity and the audit of actions on it (staff only)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { getUserCard } from "@/lib/server/services/admin/users";

export const GET = withAuth<{ id: string }>(async ({ ctx, params }) => json(await getUserCard({ ctx, input: { id: params.id } })));
