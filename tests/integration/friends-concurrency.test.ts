import { beforeAll, describe, expect, it } from "vitest";
import type { ServiceError } from "@/lib/server/http/errors";
import { transition, type FriendAction, type Side } from "@/lib/server/services/friends/transitions";
import { signedInAccount } from "./helpers/factories";
import { eventsAfter, expectAllMirrored, lastEventId, setPair, sidesOf, VERBS, type Pair } from "./friends-support";

// Opposite actions fired at the same moment. Whatever the interleaving, the pair lock must make the
// result equal to one of the two serial orders: same final sides, same answers, one event per success.

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account;
let b: Account;

beforeAll(async () => {
  a = await signedInAccount();
  b = await signedInAccount();
});

type Step = { by: "a" | "b"; action: FriendAction };
type Result = { ok: boolean; detail: string };

/** What running the steps in this order would give, by the pure table: final [a, b] sides and each answer. */
function serial(start: Pair, order: Step[]): { end: Pair; results: Map<Step, Result> } {
  let [sa, sb]: [Side, Side] = start;
  const results = new Map<Step, Result>();
  for (const s of order) {
    const o = s.by === "a" ? transition(sa, sb, s.action) : transition(sb, sa, s.action);
    if (o.ok) {
      if (s.by === "a") [sa, sb] = [o.mine, o.theirs];
      else [sb, sa] = [o.mine, o.theirs];
      results.set(s, { ok: true, detail: String(o.mine) });
    } else {
      results.set(s, { ok: false, detail: `${o.code}:${o.message}` });
    }
  }
  return { end: [sa, sb], results };
}

async function race(start: Pair, steps: Step[]) {
  await setPair(a.id, b.id, start);
  const since = await lastEventId();
  const settled = await Promise.allSettled(
    steps.map((s) => (s.by === "a" ? VERBS[s.action]({ ctx: a.ctx, input: { id: b.id } }) : VERBS[s.action]({ ctx: b.ctx, input: { id: a.id } }))),
  );
  const got = settled.map((r): Result => {
    if (r.status === "fulfilled") return { ok: true, detail: String(r.value.statusCode) };
    const e = r.reason as ServiceError;
    return { ok: false, detail: `${e.code}:${e.message}` };
  });
  const end = await sidesOf(a.id, b.id);
  const events = await eventsAfter(since);
  return { got, end, events };
}

const SCENARIOS: { name: string; start: Pair; steps: Step[] }[] = [
  { name: "A asks B while B asks A", start: [null, null], steps: [{ by: "a", action: "REQUEST" }, { by: "b", action: "REQUEST" }] },
  { name: "A blocks B while B approves A", start: ["REQUEST_TO", "REQUEST_FROM"], steps: [{ by: "a", action: "BLOCK" }, { by: "b", action: "APPROVE" }] },
  { name: "A cancels while B approves", start: ["REQUEST_TO", "REQUEST_FROM"], steps: [{ by: "a", action: "REMOVE" }, { by: "b", action: "APPROVE" }] },
  { name: "both block each other", start: ["FRIEND", "FRIEND"], steps: [{ by: "a", action: "BLOCK" }, { by: "b", action: "BLOCK" }] },
  { name: "both unblock a mutual block", start: ["BLOCKED", "BLOCKED"], steps: [{ by: "a", action: "UNBLOCK" }, { by: "b", action: "UNBLOCK" }] },
  { name: "A unblocks while B blocks back", start: ["BLOCKED", "REJECTING"], steps: [{ by: "a", action: "UNBLOCK" }, { by: "b", action: "BLOCK" }] },
  { name: "both subscribe", start: [null, null], steps: [{ by: "a", action: "SUBSCRIBE" }, { by: "b", action: "SUBSCRIBE" }] },
  { name: "both unfriend", start: ["FRIEND", "FRIEND"], steps: [{ by: "a", action: "REMOVE" }, { by: "b", action: "REMOVE" }] },
  { name: "A asks while B blocks", start: [null, null], steps: [{ by: "a", action: "REQUEST" }, { by: "b", action: "BLOCK" }] },
  { name: "A double-clicks request", start: [null, null], steps: [{ by: "a", action: "REQUEST" }, { by: "a", action: "REQUEST" }] },
  {
    name: "three at once: A asks, B subscribes, A blocks",
    start: [null, null],
    steps: [{ by: "a", action: "REQUEST" }, { by: "b", action: "SUBSCRIBE" }, { by: "a", action: "BLOCK" }],
  },
];

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

describe("friends under concurrent opposite actions", () => {
  for (const { name, start, steps } of SCENARIOS) {
    it(`${name}: the outcome equals one serial order`, async () => {
      const orders = permutations(steps).map((order) => serial(start, order));
      for (let round = 0; round < 12; round++) {
        const { got, end, events } = await race(start, steps);
        const match = orders.find(
          (o) => o.end[0] === end[0] && o.end[1] === end[1] && steps.every((s, i) => JSON.stringify(o.results.get(s)) === JSON.stringify(got[i])),
        );
        expect(match, `round ${round}: ended ${end.join("/")} with ${JSON.stringify(got)}`).toBeDefined();
        expect(events).toHaveLength(got.filter((g) => g.ok).length);
        await expectAllMirrored();
      }
    });
  }

  it("a burst of random actions among four accounts leaves every pair mirrored, one event per success", async () => {
    const people = [a, b, await signedInAccount(), await signedInAccount()];
    const actions: FriendAction[] = ["REQUEST", "APPROVE", "SUBSCRIBE", "REMOVE", "BLOCK", "UNBLOCK"];
    for (let round = 0; round < 5; round++) {
      const since = await lastEventId();
      const calls = Array.from({ length: 40 }, (_, i) => {
        const actor = people[(i * 7 + round) % 4];
        const target = people[(i * 3 + round + 1 + (i % 3)) % 4];
        const action = actions[(i * 5 + round) % actions.length];
        return VERBS[action]({ ctx: actor.ctx, input: { id: target.id } });
      });
      const settled = await Promise.allSettled(calls);
      for (const r of settled) if (r.status === "rejected") expect((r.reason as ServiceError).code).toMatch(/^(conflict|forbidden|not_found|bad_request)$/);
      expect(await eventsAfter(since)).toHaveLength(settled.filter((r) => r.status === "fulfilled").length);
      await expectAllMirrored();
    }
  });
});
