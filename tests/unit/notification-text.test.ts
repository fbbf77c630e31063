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
