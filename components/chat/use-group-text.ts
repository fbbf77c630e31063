"use client";

import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import { personArgs } from "@/lib/i18n/person-name";
import type { GroupEvent, MemberCard } from "@/lib/validation/dialogs";

/** More targets than this are said as "Бориса, Веру и ещё 3 человека". */
const NAMED_TARGETS = 3;

/** The `group` namespace's translator (next-intl's, or createTranslator's in a test). */
type GroupT = (key: string, values?: Record<string, string | number>) => string;

/**
 * An event line's text (issue 41): the actor's verb in their gender, the targets declined
 * («Анна добавила Бориса», «передала права владельца Борису»), "Вы"/"вас" for the viewer.
 */
export function groupEventText(t: GroupT, locale: string, viewerId: number, event: GroupEvent): string {
  const card = (id: number): MemberCard => event.people.find((p) => p.id === id) ?? { id, firstName: t("someone"), lastName: "", photo: null };
  const actorArgs = personArgs(card(event.actorId), locale);
  const gender = event.actorId === viewerId ? "you" : actorArgs.gender;
  const dative = event.type === "ROLE" && event.title === "OWNER";
  const named = event.targetIds.slice(0, event.targetIds.length > NAMED_TARGETS + 1 ? NAMED_TARGETS : NAMED_TARGETS + 1).map((id) => {
    if (id === viewerId) return dative ? t("event.youDat") : t("event.you");
    const args = personArgs(card(id), locale);
    return dative ? args.nameDat : args.nameAcc;
  });
  const rest = event.targetIds.length - named.length;
  const targets = new Intl.ListFormat(locale, { type: "conjunction" }).format(rest > 0 ? [...named, t("event.more", { count: rest })] : named);
  const values = { gender, actor: actorArgs.name, targets, title: event.title ?? "", count: event.targetIds.length };
  switch (event.type) {
    case "CREATED":
      return t("event.created", values);
    case "ADDED":
      return t("event.added", values);
    case "REMOVED":
      return t("event.removed", values);
    case "LEFT":
      return t("event.left", values);
    case "RENAMED":
      return t("event.renamed", values);
    case "PHOTO":
      return t("event.photo", values);
    case "ROLE":
      return event.title === "OWNER" ? t("event.owner", values) : event.title === "ADMIN" ? t("event.admin", values) : t("event.member", values);
  }
}

/**
 * How a group's texts read (issue 41): event lines (groupEventText), and who is typing («Анна печатает»,
 * «Анна и Борис печатают», «Несколько человек печатают»).
 */
export function useGroupText(viewerId: number) {
  const t = useTranslations("group");
  const tIm = useTranslations("im");
  const locale = useLocale();

  const eventText = useCallback((event: GroupEvent): string => groupEventText(t as GroupT, locale, viewerId, event), [t, locale, viewerId]);

  /** «Анна печатает», «Анна и Борис печатают», «Несколько человек печатают»; "" when nobody types. */
  const typingText = useCallback(
    (names: string[]): string => {
      if (names.length === 0) return "";
      if (names.length === 1) return tIm("typing", { name: names[0] });
      if (names.length === 2) return t("typing2", { a: names[0], b: names[1] });
      return t("typingMany");
    },
    [t, tIm],
  );

  return { eventText, typingText };
}
