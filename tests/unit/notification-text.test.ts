// The sentence of a notification, as the bell, the live toasts and Web Push say it (lib/notification-text.ts),
// with the real texts of both languages.
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { notificationText } from "@/lib/notification-text";
import type { NotificationDto } from "@/lib/validation/notifications-shared";

const message = (content: string): NotificationDto => ({
  id: 1,
  notificationType: "MESSAGE",
  sentTime: "2026-11-27T10:00:00.000Z",
  content,
  isRead: false,
  data: {
    id: 1,
    notificationType: "MESSAGE",
    content,
    sentTime: "2026-11-27T10:00:00.000Z",
    authorId: 2,
    receiverId: 3,
    author: { id: 2, firstName: "Анна", lastName: "Смирнова", photo: null },
    postId: null,
    commentId: null,
    dialogId: 7,
    count: 1,
    authors: [],
  },
});

describe("notificationText", () => {
  for (const [locale, messages, quoted, photo] of [
    ["ru", ru, "Сообщение: «Привет!»", "Сообщение с фотографией"],
    ["en", en, "Message: “Привет!”", "A message with a photo"],
  ] as const) {
    const t = createTranslator({ locale, messages, namespace: "notifications" }) as unknown as Parameters<typeof notificationText>[0];
    it(`${locale}: a message quotes its text; one of photos only says so instead of an empty quote`, () => {
      expect(notificationText(t, message("Привет!"))).toEqual({ name: "Анна Смирнова", sentence: quoted });
      expect(notificationText(t, message(""))).toEqual({ name: "Анна Смирнова", sentence: photo });
    });
  }
});

// Issue 41: being added to a group conversation names the conversation; an entry whose title excerpt came
// out empty still reads as a sentence, not «» with nothing inside.
describe("GROUP_ADDED", () => {
  const addedTo = (content: string): NotificationDto => {
    const n = message(content);
    return { ...n, notificationType: "GROUP_ADDED", data: { ...n.data, notificationType: "GROUP_ADDED" } };
  };
  for (const [locale, messages, titled, untitled] of [
    ["ru", ru, "Добавили вас в беседу «Класс 9 Б»", "Добавили вас в беседу"],
    ["en", en, "Added you to the conversation “Класс 9 Б”", "Added you to a conversation"],
  ] as const) {
    const t = createTranslator({ locale, messages, namespace: "notifications" }) as unknown as Parameters<typeof notificationText>[0];
    it(`${locale}: who added you, to which conversation`, () => {
      expect(notificationText(t, addedTo("Класс 9 Б"))).toEqual({ name: "Анна Смирнова", sentence: titled });
      expect(notificationText(t, addedTo(""))).toEqual({ name: "Анна Смирнова", sentence: untitled });
    });
  }
});

// Issue 40 item 14: Krug's own notices (birthday, report outcomes, the data archive, a blocked item) come from
// Krug under the name the rest of the interface gives it in the reader's language («Круг» in Russian).
describe("the system sender", () => {
  const system = (notificationType: NotificationDto["notificationType"], content: string): NotificationDto => {
    const n = message(content);
    return { ...n, notificationType, data: { ...n.data, notificationType, author: null, authorId: null, dialogId: null } };
  };
  for (const [locale, messages] of [
    ["ru", ru],
    ["en", en],
  ] as const) {
    const t = createTranslator({ locale, messages, namespace: "notifications" }) as unknown as Parameters<typeof notificationText>[0];
    it(`${locale}: is named as the app is (${messages.app.name}), in the name and in the sentences`, () => {
      for (const [type, content] of [
        ["USER_BIRTHDAY", ""],
        ["REPORT_RESOLVED", "DISMISS"],
        ["EXPORT_READY", ""],
        ["SEND_EMAIL_MESSAGE", "PASSWORD_CHANGE"],
        ["CONTENT_BLOCKED", "Пост"],
      ] as const) {
        expect(notificationText(t, system(type, content)).name).toBe(messages.app.name);
      }
      expect(notificationText(t, system("USER_BIRTHDAY", "")).sentence).toContain(messages.app.name);
    });
  }
  it("ru: no Russian text calls Krug by its Latin name", () => {
    const texts = JSON.stringify(ru.notifications);
    expect(texts).not.toMatch(/Krug/);
  });
});

