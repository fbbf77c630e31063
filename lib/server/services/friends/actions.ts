import "server-only";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import type { FriendSide, FriendTargetInput } from "@/lib/validation/friends";
import { requireViewer, type ServiceCtx } from "../context";
import { applyFriendAction } from "./apply-action";

// The friend actions of spec section 4, one verb each. The rules live in transitions.ts; the
// locking, writing and event in apply-action.ts.
type Args = { ctx: ServiceCtx; input: FriendTargetInput };

/** Counts a request or subscription of the viewer against its limit (ADR 0109). */
const counted = (ctx: ServiceCtx, name: "friendRequest" | "subscribe") => consumeAccountLimits([name], requireViewer(ctx).id);

/**
 * POST friends/{id}/request — asks for friendship; asking someone who asked you makes you friends.
 * RATE_LIMIT_FRIEND_REQUEST per account: no request spam.
 */
export const sendFriendRequest = async ({ ctx, input }: Args): Promise<FriendSide> => {
  await counted(ctx, "friendRequest");
  return applyFriendAction({ ctx, input, action: "REQUEST" });
};

/** PUT friends/{id}/approve — accepts an incoming request. */
export const approveFriendRequest = ({ ctx, input }: Args): Promise<FriendSide> => applyFriendAction({ ctx, input, action: "APPROVE" });

/** POST friends/subscribe/{id} — follows an account without asking for friendship (RATE_LIMIT_SUBSCRIBE per account). */
export const subscribeToAccount = async ({ ctx, input }: Args): Promise<FriendSide> => {
  await counted(ctx, "subscribe");
  return applyFriendAction({ ctx, input, action: "SUBSCRIBE" });
};

/**
 * DELETE friends/{id} — ends whatever non-block relation there is: unfriends, cancels my request,
 * declines theirs, unsubscribes, or removes a subscriber. Both rows go.
 */
export const removeFriendRelation = ({ ctx, input }: Args): Promise<FriendSide> => applyFriendAction({ ctx, input, action: "REMOVE" });

/** PUT friends/block/{id} — blocks the account, ending friendship, requests and subscriptions. */
export const blockAccount = ({ ctx, input }: Args): Promise<FriendSide> => applyFriendAction({ ctx, input, action: "BLOCK" });

/** PUT friends/unblock/{id} — lifts my block; nothing it ended comes back, their block of me stays. */
export const unblockAccount = ({ ctx, input }: Args): Promise<FriendSide> => applyFriendAction({ ctx, input, action: "UNBLOCK" });
