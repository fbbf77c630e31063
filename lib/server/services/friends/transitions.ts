// The friend relation as a pure state machine: (my side, their side, action) → both new sides and the
// event to send, or a refusal. No I/O here, so the unit and property tests exercise exactly the table the
// services apply (docs/adr/0011-friend-relation-model.md explains each choice).
import {
  FRIEND_ERRORS,
  FRIEND_REPLY,
  type FriendEventType,
  type FriendStatus,
} from "@/lib/validation/friends";

/** One account's side of the relation with another; null = no row, no relation seen from here. */
export type Side = FriendStatus | null;

export const FRIEND_ACTIONS = ["REQUEST", "APPROVE", "SUBSCRIBE", "REMOVE", "BLOCK", "UNBLOCK"] as const;
export type FriendAction = (typeof FRIEND_ACTIONS)[number];

export type Move = { ok: true; mine: Side; theirs: Side; event: FriendEventType };
export type Refusal = { ok: false; code: "conflict" | "forbidden" | "not_found"; message: string };
export type Outcome = Move | Refusal;

/**
 * The only pairs that may ever be stored, as [mine, theirs]. Each side's block is its own: when both
 * blocked each other both rows say BLOCKED, and one unblocking leaves the other's block in place.
 */
export const LEGAL_PAIRS: ReadonlyArray<readonly [Side, Side]> = [
  [null, null],
  ["FRIEND", "FRIEND"],
  ["REQUEST_TO", "REQUEST_FROM"],
  ["REQUEST_FROM", "REQUEST_TO"],
  ["SUBSCRIBED", "WATCHING"],
  ["WATCHING", "SUBSCRIBED"],
  ["BLOCKED", "REJECTING"],
  ["REJECTING", "BLOCKED"],
  ["BLOCKED", "BLOCKED"],
];

export function isLegalPair(mine: Side, theirs: Side): boolean {
  return LEGAL_PAIRS.some(([m, t]) => m === mine && t === theirs);
}

const move = (mine: Side, theirs: Side, event: FriendEventType): Move => ({ ok: true, mine, theirs, event });
const conflict = (message: string): Refusal => ({ ok: false, code: "conflict", message });
const forbidden = (message: string): Refusal => ({ ok: false, code: "forbidden", message });
const notFound = (message: string): Refusal => ({ ok: false, code: "not_found", message });

/**
 * Refusal for reaching out (request, approve, subscribe) across a block. The target's own block wins
 * ("Blocked!", 403, as the spec's reply); a block only the actor holds is theirs to lift first.
 */
function blockGuard(mine: Side, theirs: Side): Refusal | null {
  if (theirs === "BLOCKED") return forbidden(FRIEND_REPLY.blocked);
  if (mine === "BLOCKED") return conflict(FRIEND_ERRORS.youBlocked);
  return null;
}

/**
 * Applies `action` by the owner of `mine` towards the owner of `theirs`. Assumes a legal pair (the
 * service checks it under the pair lock); returns both new sides, never a half-changed relation.
 *
 * `remote`: one of the two is a person of another server (issue 43, docs/adr/0180). Between them there
 * are follows only, and FRIEND is a mutual follow, as friendship is a mutual subscription in VK: following
 * back a follower makes the pair FRIEND, and either one's unfollow leaves the other's follow standing.
 * A friend request, which such a person could never answer, is refused.
 */
export function transition(mine: Side, theirs: Side, action: FriendAction, remote = false): Outcome {
  if (remote) {
    const blocked = action === "REQUEST" || action === "APPROVE" || action === "SUBSCRIBE" ? blockGuard(mine, theirs) : null;
    if (blocked) return blocked;
    if (action === "REQUEST" || action === "APPROVE") return forbidden(FRIEND_ERRORS.remoteFollowOnly);
    if (action === "SUBSCRIBE" && mine === "WATCHING") return move("FRIEND", "FRIEND", "FRIEND_SUBSCRIBE");
    if (action === "SUBSCRIBE" && mine === "FRIEND") return conflict(FRIEND_ERRORS.alreadySubscribed);
    if (action === "REMOVE" && mine === "FRIEND") return move("WATCHING", "SUBSCRIBED", "FRIEND_REMOVED");
  }
  switch (action) {
    case "REQUEST": {
      const blocked = blockGuard(mine, theirs);
      if (blocked) return blocked;
      switch (mine) {
        case "FRIEND":
          return conflict(FRIEND_ERRORS.alreadyFriends);
        case "REQUEST_TO":
          return conflict(FRIEND_REPLY.requestAlreadySent);
        // They asked first: asking back is agreeing.
        case "REQUEST_FROM":
          return move("FRIEND", "FRIEND", "FRIEND_APPROVE");
        // No relation, my subscription, or theirs: a request supersedes a subscription either way;
        // a follower of mine becomes someone with an incoming request they may approve or decline.
        default:
          return move("REQUEST_TO", "REQUEST_FROM", "FRIEND_REQUEST");
      }
    }
    case "APPROVE": {
      if (mine === "REQUEST_FROM") return move("FRIEND", "FRIEND", "FRIEND_APPROVE");
      const blocked = blockGuard(mine, theirs);
      if (blocked) return blocked;
      if (mine === "FRIEND") return conflict(FRIEND_ERRORS.alreadyFriends);
      if (mine === null) return notFound(FRIEND_ERRORS.noIncomingRequest);
      return conflict(FRIEND_ERRORS.noIncomingRequest);
    }
    case "SUBSCRIBE": {
      const blocked = blockGuard(mine, theirs);
      if (blocked) return blocked;
      switch (mine) {
        case null:
          return move("SUBSCRIBED", "WATCHING", "FRIEND_SUBSCRIBE");
        case "SUBSCRIBED":
          return conflict(FRIEND_ERRORS.alreadySubscribed);
        // A pending request already follows the account.
        case "REQUEST_TO":
          return conflict(FRIEND_REPLY.requestAlreadySent);
        case "REQUEST_FROM":
          return conflict(FRIEND_ERRORS.incomingRequest);
        // Two rows cannot hold a mutual subscription; a request is the way from here.
        case "WATCHING":
          return conflict(FRIEND_ERRORS.followsYou);
        default:
          return conflict(FRIEND_ERRORS.alreadyFriends);
      }
    }
    case "REMOVE": {
      switch (mine) {
        case null:
          return notFound(FRIEND_ERRORS.noRelation);
        case "BLOCKED":
          return conflict(FRIEND_ERRORS.useUnblock);
        case "REJECTING":
          return forbidden(FRIEND_REPLY.blocked);
        // Unfriend, cancel my request, decline theirs, unsubscribe, or remove a subscriber: nothing remains.
        default:
          return move(null, null, "FRIEND_REMOVED");
      }
    }
    case "BLOCK": {
      if (mine === "BLOCKED") return conflict(FRIEND_ERRORS.alreadyBlocked);
      // Blocking back keeps their block: each side's block is lifted only by its owner.
      if (mine === "REJECTING") return move("BLOCKED", "BLOCKED", "FRIEND_BLOCKED");
      // Ends friendship, requests and subscriptions alike.
      return move("BLOCKED", "REJECTING", "FRIEND_BLOCKED");
    }
    case "UNBLOCK": {
      if (mine !== "BLOCKED") return conflict(FRIEND_ERRORS.notBlocked);
      // Nothing that the block ended comes back; their own block of me stays.
      return theirs === "BLOCKED" ? move("REJECTING", "BLOCKED", "FRIEND_UNBLOCKED") : move(null, null, "FRIEND_UNBLOCKED");
    }
  }
}
