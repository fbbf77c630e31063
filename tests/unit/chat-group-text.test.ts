// A group's event lines as the history and the dialog list say them (components/chat/use-group-text.ts),
// with the real texts of both languages: the actor's gender, the targets declined, "you" for the viewer.
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { groupEventText } from "@/components/chat/use-group-text";
import type { GroupEvent } from "@/lib/validation/dialogs";

const ME = 1;
const anna = { id: 2, firstName: "Анна", lastName: "Смирнова", photo: null };
const boris = { id: 3, firstName: "Борис", lastName: "Петров", photo: null };
const vera = { id: 4, firstName: "Вера", lastName: "Котова", photo: null };
const igor = { id: 5, firstName: "Игорь", lastName: "Лис", photo: null };
const olga = { id: 6, firstName: "Ольга", lastName: "Лис", photo: null };
const me = { id: ME, firstName: "Глеб", lastName: "Иванов", photo: null };
const people = [anna, boris, vera, igor, olga, me];

const tRu = createTranslator({ locale: "ru", messages: ru, namespace: "group" });
const tEn = createTranslator({ locale: "en", messages: en, namespace: "group" });
const say = (lang: "ru" | "en", e: Omit<GroupEvent, "people">) =>
  groupEventText((lang === "ru" ? tRu : tEn) as unknown as (key: string, values?: Record<string, string | number>) => string, lang, ME, { ...e, people });

describe("event lines", () => {
  it("names the actor in their gender and the targets in the accusative", () => {
    expect(say("ru", { type: "CREATED", actorId: 2, targetIds: [], title: "Класс" })).toBe("Анна создала беседу «Класс»");
    expect(say("ru", { type: "ADDED", actorId: 2, targetIds: [3, 4], title: null })).toBe("Анна добавила Бориса и Веру");
    expect(say("ru", { type: "REMOVED", actorId: 3, targetIds: [4], title: null })).toBe("Борис исключил Веру");
    expect(say("ru", { type: "LEFT", actorId: 3, targetIds: [], title: null })).toBe("Борис покинул беседу");
    expect(say("ru", { type: "RENAMED", actorId: 4, targetIds: [], title: "Двор" })).toBe("Вера переименовала беседу в «Двор»");
    expect(say("ru", { type: "PHOTO", actorId: 2, targetIds: [], title: null })).toBe("Анна обновила фотографию беседы");
    expect(say("ru", { type: "ROLE", actorId: 2, targetIds: [3], title: "ADMIN" })).toBe("Анна назначила Бориса администратором");
    expect(say("ru", { type: "ROLE", actorId: 2, targetIds: [3], title: "MEMBER" })).toBe("Анна сняла Бориса с роли администратора");
    expect(say("ru", { type: "ROLE", actorId: 2, targetIds: [3], title: "OWNER" })).toBe("Анна передала права владельца Борису");
  });

  it("says «Вы» and «вас» for the viewer", () => {
    expect(say("ru", { type: "CREATED", actorId: ME, targetIds: [], title: "Класс" })).toBe("Вы создали беседу «Класс»");
    expect(say("ru", { type: "ADDED", actorId: 2, targetIds: [ME], title: null })).toBe("Анна добавила вас");
    expect(say("ru", { type: "ROLE", actorId: 2, targetIds: [ME], title: "OWNER" })).toBe("Анна передала права владельца вам");
    expect(say("en", { type: "REMOVED", actorId: 2, targetIds: [ME], title: null })).toBe("Анна removed you");
    expect(say("en", { type: "LEFT", actorId: ME, targetIds: [], title: null })).toBe("You left the conversation");
  });

  it("names three targets of many and counts the rest", () => {
    expect(say("ru", { type: "ADDED", actorId: 2, targetIds: [3, 4, 5, 6, ME], title: null })).toBe("Анна добавила Бориса, Веру, Игоря и ещё 2 человек");
    expect(say("en", { type: "ADDED", actorId: 2, targetIds: [3, 4, 5, 6, ME], title: null })).toBe("Анна added Борис, Вера, Игорь, and 2 more people");
    expect(say("ru", { type: "ADDED", actorId: 2, targetIds: [3, 4, 5, 6], title: null })).toBe("Анна добавила Бориса, Веру, Игоря и Ольгу");
  });
});
