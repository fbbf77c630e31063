import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import type { ServiceError } from "@/lib/server/http/errors";
import { FRIEND_ACTIONS, transition, type Side } from "@/lib/server/services/friends/transitions";
import type { FriendSide, FriendStatus } from "@/lib/validation/friends";
import { signedInAccount } from "./helpers/factories";
import { eventsAfter, expectAllMirrored, lastEventId, VERBS } from "./friends-support";

// Random action sequences between four real accounts through the service verbs, against Postgres,
// checked step by step against the pure transition table: same answer or refusal, same stored sides,
// every row mirrored, exactly one event per accepted action and none per refusal.

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const PEOPLE = 4;
let people: Account[];

beforeAll(async () => {
  people = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await signedInAccount());
});

type Model = Map<string, Side>;
const at = (m: Model, a: number, b: number): Side => m.get(`${a}>${b}`) ?? null;

async function stored(): Promise<Model> {
  const ids = people.map((p) => p.id);
  const rows = await getDb().execute<{ account_id: string; friend_id: string; status_code: FriendStatus }>(sql`
    select account_id, friend_id, status_code from friendships
    where account_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  const m: Model = new Map();
  for (const r of rows) m.set(`${ids.indexOf(Number(r.account_id))}>${ids.indexOf(Number(r.friend_id))}`, r.status_code);
  return m;
}

function modelAsObject(m: Model): Record<string, Side> {
  const out: Record<string, Side> = {};
  for (let a = 0; a < PEOPLE; a++) for (let b = 0; b < PEOPLE; b++) if (a !== b) out[`${a}>${b}`] = at(m, a, b);
  return out;
}

const step = fc.record({
  actor: fc.integer({ min: 0, max: PEOPLE - 1 }),
  target: fc.integer({ min: 0, max: PEOPLE - 1 }),
  action: fc.constantFrom(...FRIEND_ACTIONS),
});

describe("friends against Postgres — property", () => {
  it("random action sequences keep both sides in agreement and follow the transition table", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        await getDb().execute(sql`delete from friendships where account_id in (${sql.join(people.map((p) => sql`${p.id}`), sql`, `)})`);
        const model: Model = new Map();
        for (const { actor, target, action } of steps) {
          const since = await lastEventId();
          let answer: FriendSide | undefined;
          let error: ServiceError | undefined;
          try {
            answer = await VERBS[action]({ ctx: people[actor].ctx, input: { id: people[target].id } });
          } catch (e) {
            error = e as ServiceError;
          }
          const events = await eventsAfter(since);

          if (actor === target) {
            expect(error?.code).toBe("bad_request");
            expect(events).toEqual([]);
          } else {
            const mine = at(model, actor, target);
            const theirs = at(model, target, actor);
            const outcome = transition(mine, theirs, action);
            if (outcome.ok) {
              expect(error, `${action} ${mine}/${theirs}`).toBeUndefined();
              expect(answer).toMatchObject({ friendId: people[target].id, statusCode: outcome.mine, previousStatusCode: mine });
              model.set(`${actor}>${target}`, outcome.mine);
              model.set(`${target}>${actor}`, outcome.theirs);
              expect(events).toHaveLength(1);
              expect(events[0]).toMatchObject({ type: outcome.event, recipients: [people[target].id] });
              expect(events[0].data).toMatchObject({ authorId: people[actor].id, receiverId: people[target].id, statusCode: outcome.theirs });
            } else {
              expect(error?.code, `${action} ${mine}/${theirs}`).toBe(outcome.code);
              expect(error?.message).toBe(outcome.message);
              expect(events).toEqual([]);
            }
          }
          expect(modelAsObject(await stored())).toEqual(modelAsObject(model));
        }
        await expectAllMirrored();
      }),
      { numRuns: 100 },
    );
  }, 180_000);
});
