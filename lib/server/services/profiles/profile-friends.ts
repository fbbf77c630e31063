import "server-only";
import { ForbiddenError } from "@/lib/server/http/errors";
import { z } from "zod";
import { NotFoundError } from "@/lib/server/http/errors";
import { accountIdSchema, type FriendAccountSummary } from "@/lib/validation/friends";
import { requireViewer, type ServiceCtx } from "../context";
import { listCountQuery, listPageQuery } from "../friends/lists";
import { toFriendSummary, type SummaryRow } from "../friends/summary";
import { assertProfileOpen } from "../privacy/access";
import { isProfileListed } from "./public-profile";

/** How many friends the profile page's friends block shows. */
export const PROFILE_FRIENDS_PREVIEW = 6;

const profileFriendsInput = z.object({
  id: accountIdSchema,
  size: z.number().int().min(1).max(24).default(PROFILE_FRIENDS_PREVIEW),
});

export type ProfileFriends = { count: number; friends: FriendAccountSummary[] };

/**
 * The friends block of a profile page: the account's newest friends and how many it has, for any
 * signed-in viewer (friend lists are public on profiles, as on VK) unless the page is closed to them. Only FRIEND relations: requests,
 * subscriptions and blocks of another account stay private. Deleted friends are left out of both the
 * rows and the count (the same rule as the /friends tabs), and the same index serves both queries.
 */
export async function getProfileFriends({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<ProfileFriends> {
  const viewer = requireViewer(ctx);
  // A deleted account sees only its own page until it is restored.
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const { id, size } = profileFriendsInput.parse(input);
  const db = ctx.tx ?? ctx.db;
  if (id !== viewer.id && !(await isProfileListed(db, id))) throw new NotFoundError("accountErrors.notFound");
  // A closed page's friends are its friends' only (docs/adr/0125): 403, so a client can tell it from "no friends".
  await assertProfileOpen(db, viewer.id, id);
  const [rows, [total]] = await Promise.all([
    db.execute<SummaryRow>(listPageQuery(id, "FRIEND", 0, size, "updatedAt,desc")),
    db.execute<{ count: string }>(listCountQuery(id, "FRIEND")),
  ]);
  const now = new Date();
  return { count: Number(total.count), friends: rows.map((r) => toFriendSummary(r, now, ctx.locale, id === viewer.id ? "FRIEND" : undefined)) };
}
