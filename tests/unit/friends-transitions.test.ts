import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FRIEND_ACTIONS,
  LEGAL_PAIRS,
  isLegalPair,
  transition,
  type FriendAction,
  type Side,
} from "@/lib/server/services/friends/transitions";

// Expected outcome of every action from every legal pair, written out by hand: the relation model of
// the friends ADR as a table. "ok:<mine>/<theirs>:<event>" or "<code>:<message>".
const EXPECTED: Record<string, Record<FriendAction, string>> = {
  "-/-": {
    REQUEST: "ok:REQUEST_TO/REQUEST_FROM:FRIEND_REQUEST",
    APPROVE: "not_found:friendErrors.noIncomingRequest",
    SUBSCRIBE: "ok:SUBSCRIBED/WATCHING:FRIEND_SUBSCRIBE",
    REMOVE: "not_found:friendErrors.noRelation",
    BLOCK: "ok:BLOCKED/REJECTING:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "FRIEND/FRIEND": {
    REQUEST: "conflict:friendErrors.alreadyFriends",
    APPROVE: "conflict:friendErrors.alreadyFriends",
    SUBSCRIBE: "conflict:friendErrors.alreadyFriends",
    REMOVE: "ok:-/-:FRIEND_REMOVED",
    BLOCK: "ok:BLOCKED/REJECTING:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "REQUEST_TO/REQUEST_FROM": {
    REQUEST: "conflict:request already sent!",
    APPROVE: "conflict:friendErrors.noIncomingRequest",
    SUBSCRIBE: "conflict:request already sent!",
    REMOVE: "ok:-/-:FRIEND_REMOVED",
    BLOCK: "ok:BLOCKED/REJECTING:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "REQUEST_FROM/REQUEST_TO": {
    REQUEST: "ok:FRIEND/FRIEND:FRIEND_APPROVE",
    APPROVE: "ok:FRIEND/FRIEND:FRIEND_APPROVE",
    SUBSCRIBE: "conflict:friendErrors.incomingRequest",
    REMOVE: "ok:-/-:FRIEND_REMOVED",
    BLOCK: "ok:BLOCKED/REJECTING:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "SUBSCRIBED/WATCHING": {
    REQUEST: "ok:REQUEST_TO/REQUEST_FROM:FRIEND_REQUEST",
    APPROVE: "conflict:friendErrors.noIncomingRequest",
    SUBSCRIBE: "conflict:friendErrors.alreadySubscribed",
    REMOVE: "ok:-/-:FRIEND_REMOVED",
    BLOCK: "ok:BLOCKED/REJECTING:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "WATCHING/SUBSCRIBED": {
    REQUEST: "ok:REQUEST_TO/REQUEST_FROM:FRIEND_REQUEST",
    APPROVE: "conflict:friendErrors.noIncomingRequest",
    SUBSCRIBE: "conflict:friendErrors.followsYou",
    REMOVE: "ok:-/-:FRIEND_REMOVED",
    BLOCK: "ok:BLOCKED/REJECTING:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "BLOCKED/REJECTING": {
    REQUEST: "conflict:friendErrors.youBlocked",
    APPROVE: "conflict:friendErrors.youBlocked",
    SUBSCRIBE: "conflict:friendErrors.youBlocked",
    REMOVE: "conflict:friendErrors.useUnblock",
    BLOCK: "conflict:friendErrors.alreadyBlocked",
    UNBLOCK: "ok:-/-:FRIEND_UNBLOCKED",
  },
  "REJECTING/BLOCKED": {
    REQUEST: "forbidden:Blocked!",
    APPROVE: "forbidden:Blocked!",
    SUBSCRIBE: "forbidden:Blocked!",
    REMOVE: "forbidden:Blocked!",
    BLOCK: "ok:BLOCKED/BLOCKED:FRIEND_BLOCKED",
    UNBLOCK: "conflict:friendErrors.notBlocked",
  },
  "BLOCKED/BLOCKED": {
    REQUEST: "forbidden:Blocked!",
    APPROVE: "forbidden:Blocked!",
    SUBSCRIBE: "forbidden:Blocked!",
    REMOVE: "conflict:friendErrors.useUnblock",
    BLOCK: "conflict:friendErrors.alreadyBlocked",
    UNBLOCK: "ok:REJECTING/BLOCKED:FRIEND_UNBLOCKED",
  },
};

const key = (mine: Side, theirs: Side) => `${mine ?? "-"}/${theirs ?? "-"}`;

function describeOutcome(mine: Side, theirs: Side, action: FriendAction): string {
  const o = transition(mine, theirs, action);
  return o.ok ? `ok:${key(o.mine, o.theirs)}:${o.event}` : `${o.code}:${o.message}`;
}

describe("friend transition table", () => {
  it("covers every legal pair", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(LEGAL_PAIRS.map(([m, t]) => key(m, t)).sort());
  });

  for (const [mine, theirs] of LEGAL_PAIRS) {
    for (const action of FRIEND_ACTIONS) {
      it(`${key(mine, theirs)} ${action}`, () => {
        expect(describeOutcome(mine, theirs, action)).toBe(EXPECTED[key(mine, theirs)][action]);
      });
    }
  }

  it("knows which pairs are legal", () => {
    expect(isLegalPair("FRIEND", "FRIEND")).toBe(true);
    expect(isLegalPair("BLOCKED", "BLOCKED")).toBe(true);
    expect(isLegalPair("FRIEND", null)).toBe(false);
    expect(isLegalPair("REQUEST_TO", "REQUEST_TO")).toBe(false);
    expect(isLegalPair("REJECTING", "REJECTING")).toBe(false);
    expect(isLegalPair("SUBSCRIBED", "SUBSCRIBED")).toBe(false);
  });
});

// ---- Property: random action sequences between four accounts ----

const PEOPLE = 4;
type World = Map<string, Side>; // "a>b" → a's side towards b

const sideOf = (w: World, a: number, b: number): Side => w.get(`${a}>${b}`) ?? null;

function apply(w: World, actor: number, target: number, action: FriendAction) {
  const before: [Side, Side] = [sideOf(w, actor, target), sideOf(w, target, actor)];
  const outcome = transition(before[0], before[1], action);
  if (outcome.ok) {
    w.set(`${actor}>${target}`, outcome.mine);
    w.set(`${target}>${actor}`, outcome.theirs);
  }
  return { before, outcome };
}

const step = fc.record({
  actor: fc.integer({ min: 0, max: PEOPLE - 1 }),
  target: fc.integer({ min: 0, max: PEOPLE - 1 }),
  action: fc.constantFrom(...FRIEND_ACTIONS),
});

describe("friend transitions — properties", () => {
  it("every reachable relation is a legal pair, and each action only does what it may", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const w: World = new Map();
        for (const { actor, target, action } of steps) {
          if (actor === target) continue; // refused by the service before the table (400)
          const { before, outcome } = apply(w, actor, target, action);
          const [mine, theirs] = before;
          for (let a = 0; a < PEOPLE; a++)
            for (let b = a + 1; b < PEOPLE; b++) expect(isLegalPair(sideOf(w, a, b), sideOf(w, b, a))).toBe(true);
          if (!outcome.ok) continue;
          // Another account's block is only ever lifted by that account.
          if (theirs === "BLOCKED") expect(outcome.theirs).toBe("BLOCKED");
          switch (action) {
            case "REQUEST":
              expect(outcome.mine).toBe(mine === "REQUEST_FROM" ? "FRIEND" : "REQUEST_TO");
              break;
            case "APPROVE":
              expect([mine, outcome.mine]).toEqual(["REQUEST_FROM", "FRIEND"]);
              break;
            case "SUBSCRIBE":
              expect([mine, outcome.mine, outcome.theirs]).toEqual([null, "SUBSCRIBED", "WATCHING"]);
              break;
            case "REMOVE":
              expect(mine === "BLOCKED" || mine === "REJECTING" || mine === null).toBe(false);
              expect([outcome.mine, outcome.theirs]).toEqual([null, null]);
              break;
            case "BLOCK":
              expect(outcome.mine).toBe("BLOCKED");
              expect(outcome.theirs).toBe(theirs === "BLOCKED" ? "BLOCKED" : "REJECTING");
              break;
            case "UNBLOCK":
              expect(mine).toBe("BLOCKED");
              expect(outcome.mine).toBe(theirs === "BLOCKED" ? "REJECTING" : null);
              break;
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("unblocking restores nothing the block ended", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LEGAL_PAIRS), ([mine, theirs]) => {
        const blocked = transition(mine, theirs, "BLOCK");
        if (!blocked.ok) return;
        const lifted = transition(blocked.mine, blocked.theirs, "UNBLOCK");
        expect(lifted.ok).toBe(true);
        if (lifted.ok) expect([lifted.mine, lifted.theirs]).toEqual(theirs === "BLOCKED" ? ["REJECTING", "BLOCKED"] : [null, null]);
      }),
    );
  });

  it("the blocked side can never reach out", () => {
    for (const action of ["REQUEST", "APPROVE", "SUBSCRIBE", "REMOVE"] as const) {
      const o = transition("REJECTING", "BLOCKED", action);
      expect(o).toEqual({ ok: false, code: "forbidden", message: "Blocked!" });
    }
  });
});

// ---- Across servers (issue 43, docs/adr/0180): follows only, and FRIEND is a mutual follow ----

const REMOTE_DIFFERS: Record<string, Partial<Record<FriendAction, string>>> = {
  "-/-": { REQUEST: "forbidden:friendErrors.remoteFollowOnly", APPROVE: "forbidden:friendErrors.remoteFollowOnly" },
  "FRIEND/FRIEND": {
    REQUEST: "forbidden:friendErrors.remoteFollowOnly",
    APPROVE: "forbidden:friendErrors.remoteFollowOnly",
    SUBSCRIBE: "conflict:friendErrors.alreadySubscribed",
    REMOVE: "ok:WATCHING/SUBSCRIBED:FRIEND_REMOVED",
  },
  "SUBSCRIBED/WATCHING": { REQUEST: "forbidden:friendErrors.remoteFollowOnly", APPROVE: "forbidden:friendErrors.remoteFollowOnly" },
  "WATCHING/SUBSCRIBED": {
    REQUEST: "forbidden:friendErrors.remoteFollowOnly",
    APPROVE: "forbidden:friendErrors.remoteFollowOnly",
    SUBSCRIBE: "ok:FRIEND/FRIEND:FRIEND_SUBSCRIBE",
  },
  // Requests never arise across servers; asked anyway, they are refused as a friend request would be.
  "REQUEST_TO/REQUEST_FROM": { REQUEST: "forbidden:friendErrors.remoteFollowOnly", APPROVE: "forbidden:friendErrors.remoteFollowOnly" },
  "REQUEST_FROM/REQUEST_TO": { REQUEST: "forbidden:friendErrors.remoteFollowOnly", APPROVE: "forbidden:friendErrors.remoteFollowOnly" },
};

describe("friend transition table across servers", () => {
  for (const [mine, theirs] of LEGAL_PAIRS) {
    for (const action of FRIEND_ACTIONS) {
      const expected = REMOTE_DIFFERS[key(mine, theirs)]?.[action] ?? EXPECTED[key(mine, theirs)][action];
      it(`${key(mine, theirs)} ${action}`, () => {
        const o = transition(mine, theirs, action, true);
        expect(o.ok ? `ok:${key(o.mine, o.theirs)}:${o.event}` : `${o.code}:${o.message}`).toBe(expected);
      });
    }
  }

  it("every reachable relation is a legal pair, and a mutual follow ends in one follow, never in none", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ first: fc.boolean(), action: fc.constantFrom(...FRIEND_ACTIONS) }), { maxLength: 40 }), (steps) => {
        let pair: [Side, Side] = [null, null];
        for (const { first, action } of steps) {
          const [mine, theirs] = first ? pair : [pair[1], pair[0]];
          const o = transition(mine, theirs, action, true);
          if (!o.ok) continue;
          expect(isLegalPair(o.mine, o.theirs)).toBe(true);
          expect(o.mine === "REQUEST_TO" || o.mine === "REQUEST_FROM").toBe(false);
          if (mine === "FRIEND" && action === "REMOVE") expect([o.mine, o.theirs]).toEqual(["WATCHING", "SUBSCRIBED"]);
          pair = first ? [o.mine, o.theirs] : [o.theirs, o.mine];
        }
      }),
      { numRuns: 300 },
    );
  });
});
