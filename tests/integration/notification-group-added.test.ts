// Issue 41: "someone added you to a group conversation" (GROUP_ADDED): who is told, its own switch, blocks,
// and what the bell, the live frame and Web Push say about it.
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as pageRoute } from "@/app/api/v1/notifications/page/route";
import { getDb } from "@/db/client";
import { notificationHref, notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import { notifyGroupAdded } from "@/lib/server/services/notifications/producers";
import { setNotificationSetting } from "@/lib/server/services/notifications/settings";
import { pushMessage } from "@/lib/server/services/push/deliver";
import type { NotificationDto } from "@/lib/validation/notifications";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { eventsAfter, lastEventId, setAccount, setPair } from "./friends-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

const mine = async (who: Account): Promise<NotificationDto[]> =>
  (await call(pageRoute, { path: "/api/v1/notifications/page?size=100", token: who.accessToken })).body.content;
const added = async (who: Account) => (await mine(who)).filter((n) => n.notificationType === "GROUP_ADDED");
const frames = async (after: number) => (await eventsAfter(after, true)).filter((e) => e.type === "NOTIFICATION");

/** A group conversation row as the group service stores it (issue 41 schema). */
async function group(title: string): Promise<number> {
  const [row] = await getDb().execute<{ id: string }>(sql`
    insert into dialogs (kind, title, members_count) values ('GROUP', ${title}, 3) returning id`);
  return Number(row.id);
}

const addTo = (actor: Account, recipients: Account[], dialogId: number, title: string) =>
  getDb().transaction((tx) => notifyGroupAdded(tx, { actorId: actor.id, recipients: recipients.map((r) => r.id), dialogId, title }));

let anna: Account;
let boris: Account;
let clara: Account;

beforeEach(async () => {
  anna = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
  boris = await signedInAccount({ firstName: "Boris", lastName: "Orlov" });
  clara = await signedInAccount({ firstName: "Clara", lastName: "Smirnova" });
});

describe("notifyGroupAdded", () => {
  it("tells each person added, with the actor, the conversation and its title, live and in the list; never the actor", async () => {
    const dialogId = await group("Семья");
    const before = await lastEventId();
    await addTo(anna, [boris, clara, anna], dialogId, "Семья");

    const live = await frames(before);
    for (const who of [boris, clara]) {
      const [n] = await mine(who);
      expect(n).toMatchObject({
        notificationType: "GROUP_ADDED",
        content: "Семья",
        isRead: false,
        data: {
          authorId: anna.id,
          receiverId: who.id,
          author: { id: anna.id, firstName: "Anna", lastName: "Ivanova" },
          dialogId,
          postId: null,
          commentId: null,
          count: 1,
        },
      });
      expect(n.data.gone ?? null).toBeNull();
      // The live frame each of them gets is their own entry exactly as listed.
      const frame = live.filter((e) => e.recipients.includes(who.id));
      expect(frame).toHaveLength(1);
      expect(frame[0].recipients).toEqual([who.id]);
      expect(frame[0].data).toEqual({ ...n, timestamp: n.sentTime });
    }
    expect(live).toHaveLength(2);
    expect(await mine(anna)).toEqual([]);
  });

  it("is not grouped: being added to two conversations, or to one again after leaving it, is an entry each", async () => {
    const family = await group("Семья");
    const work = await group("Работа");
    await addTo(anna, [boris], family, "Семья");
    await addTo(clara, [boris], work, "Работа");
    await addTo(anna, [boris], family, "Семья");
    const entries = await added(boris);
    expect(entries.map((n) => [n.data.dialogId, n.content, n.data.authorId, n.data.count])).toEqual([
      [family, "Семья", anna.id, 1],
      [work, "Работа", clara.id, 1],
      [family, "Семья", anna.id, 1],
    ]);
  });

  it("its switch (GROUP_ADDED, enableGroupAdded) off: no row and no frame; back on: told again", async () => {
    const dialogId = await group("Класс 9 Б");
    const off = await setNotificationSetting({ ctx: boris.ctx, input: { notificationType: "GROUP_ADDED", enable: false } });
    expect(off.enableGroupAdded).toBe(false);
    const before = await lastEventId();
    await addTo(anna, [boris, clara], dialogId, "Класс 9 Б");
    expect(await mine(boris)).toEqual([]);
    expect((await added(clara)).map((n) => n.data.dialogId)).toEqual([dialogId]);
    const live = await frames(before);
    expect(live.flatMap((e) => e.recipients)).toEqual([clara.id]);

    await setNotificationSetting({ ctx: boris.ctx, input: { notificationType: "GROUP_ADDED", enable: true } });
    await addTo(anna, [boris], dialogId, "Класс 9 Б");
    expect((await added(boris)).map((n) => n.data.dialogId)).toEqual([dialogId]);
  });

  it("nobody with a block either way with the actor hears of it, nor a deleted account", async () => {
    const dialogId = await group("Соседи");
    const dora = await signedInAccount();
    const egor = await signedInAccount();
    await setPair(boris.id, anna.id, ["BLOCKED", "REJECTING"]); // Boris blocked Anna
    await setPair(anna.id, clara.id, ["BLOCKED", "REJECTING"]); // Anna blocked Clara
    await setAccount(egor.id, { isDeleted: true });
    const before = await lastEventId();
    await addTo(anna, [boris, clara, dora, egor], dialogId, "Соседи");
    expect(await mine(boris)).toEqual([]);
    expect(await mine(clara)).toEqual([]);
    expect((await added(dora)).map((n) => n.data.dialogId)).toEqual([dialogId]);
    expect((await frames(before)).flatMap((e) => e.recipients)).toEqual([dora.id]);
    const [stored] = await getDb().execute<{ n: number }>(sql`
      select count(*)::int as n from notifications where notification_type = 'GROUP_ADDED' and receiver_id = ${egor.id}`);
    expect(stored.n).toBe(0);
  });

  it("keeps the title a plain one-line excerpt; nobody to tell writes nothing", async () => {
    const long = `Беседа   выпускников\n${"очень ".repeat(60)}`;
    const dialogId = await group(long);
    const before = await lastEventId();
    await addTo(anna, [], dialogId, long);
    expect(await frames(before)).toEqual([]);
    await addTo(anna, [boris], dialogId, long);
    const [n] = await mine(boris);
    expect(n.content.startsWith("Беседа выпускников очень")).toBe(true);
    expect(n.content).toHaveLength(200);
    expect(n.content.endsWith("…")).toBe(true);
  });
});

describe("what GROUP_ADDED says", () => {
  it("the bell and the toasts: who added you to which conversation, in both languages, leading to it", async () => {
    const dialogId = await group("Семья");
    await addTo(anna, [boris], dialogId, "Семья");
    const [n] = await mine(boris);
    for (const [locale, messages, sentence] of [
      ["ru", ru, "Добавили вас в беседу «Семья»"],
      ["en", en, "Added you to the conversation “Семья”"],
    ] as const) {
      const t = createTranslator({ locale, messages, namespace: "notifications" }) as unknown as NotificationsTranslate;
      expect(notificationText(t, n)).toEqual({ name: "Anna Ivanova", sentence });
      expect(messages.settings.notificationType.GROUP_ADDED).toBeTruthy();
    }
    expect(notificationHref(n)).toBe(`/im/${dialogId}`);
  });

  it("Web Push: the same text, the conversation's address, a tag of its own (the first messages do not replace it)", async () => {
    const dialogId = await group("Семья");
    await addTo(anna, [boris], dialogId, "Семья");
    const [n] = await mine(boris);
    const ruPush = pushMessage(n, "ru");
    expect(ruPush.payload).toEqual({
      title: "Anna Ivanova",
      body: "Добавили вас в беседу «Семья»",
      icon: null,
      url: `/im/${dialogId}`,
      tag: `added-${dialogId}`,
      type: "GROUP_ADDED",
    });
    expect(ruPush).toMatchObject({ urgency: "normal", ttl: 24 * 3600, topic: `added-${dialogId}` });
    expect(pushMessage(n, "en").payload.body).toBe("Added you to the conversation “Семья”");
    // A message of the same conversation keeps collapsing per dialog.
    const message = { ...n, notificationType: "MESSAGE" as const, content: "Привет", data: { ...n.data, notificationType: "MESSAGE" as const, content: "Привет" } };
    expect(pushMessage(message, "ru").payload.tag).toBe(`dialog-${dialogId}`);
  });
});
