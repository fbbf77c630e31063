"use client";

// Loaded only when the composer's emoji button is first pressed (next/dynamic in composer.tsx), so the
// dialog page's first load does not carry the picker or its data (docs/adr/0134). The picker is
// emoji-picker-react: native emoji (nothing fetched from any CDN), its data shipped in the package and
// served as our own chunks; the Russian dataset (names and search words in Russian) loads as one more.

import EmojiPickerReact, { Categories, SuggestionMode, type EmojiDataLoader, type PickerLabels } from "emoji-picker-react";
import { useLocale, useTranslations } from "next-intl";
import { useTheme } from "next-themes";
import { useMemo } from "react";

/** The Russian dataset, its category names as Russian headings are written: «Люди и тело», not «люди и тело». */
const loadRussian: EmojiDataLoader = async () => {
  const data = (await import("emoji-picker-react/data/emojis-ru")).default;
  const categories = Object.fromEntries(
    Object.entries(data.categories).map(([key, c]) => [key, c && { ...c, name: c.name.charAt(0).toLocaleUpperCase("ru") + c.name.slice(1) }]),
  ) as typeof data.categories;
  return { ...data, categories };
};

/** The Russian dataset, fetched ahead when the composer is first used (issue 44 item 7): import() loads it once. */
export function preloadEmojiData(locale: string): void {
  if (locale === "ru") void import("emoji-picker-react/data/emojis-ru");
}

/**
 * The package's order of categories. The first is named for what it holds: its datasets call it «люди и тело»
 * ("people & body"), and it opens on smileys (issue 44 item 7).
 */
const ORDER = [Categories.ANIMALS_NATURE, Categories.FOOD_DRINK, Categories.TRAVEL_PLACES, Categories.ACTIVITIES, Categories.OBJECTS, Categories.SYMBOLS, Categories.FLAGS];

/** `focusSearch` is false on a touch screen, where a focused search would open the keyboard over the picker. */
export default function EmojiPicker({ onPick, focusSearch }: { onPick: (emoji: string) => void; focusSearch: boolean }) {
  const t = useTranslations("im");
  const locale = useLocale();
  const { resolvedTheme } = useTheme();
  const labels = useMemo<Partial<PickerLabels>>(
    () => ({
      searchPlaceholder: t("emojiSearchPlaceholder"),
      searchLabel: t("emojiSearch"),
      searchClear: t("emojiClear"),
      searchResultsNone: t("emojiNoResults"),
      searchResultsOne: t("emojiResultsOne"),
      searchResultsMany: t("emojiResultsMany"),
      categoryNavigation: t("emojiCategories"),
      loading: t("emojiLoading"),
      loadingError: t("emojiLoadFailed"),
      retryLoading: t("emojiRetry"),
    }),
    [t],
  );
  const categories = useMemo(() => [Categories.SUGGESTED, { category: Categories.SMILEYS_PEOPLE, name: t("emojiSmileys") }, ...ORDER], [t]);
  return (
    <EmojiPickerReact
      // The Russian names also carry the Russian category names; English is the package's own dataset.
      emojiData={locale === "ru" ? loadRussian : undefined}
      lang={locale}
      labels={labels}
      colorScheme={resolvedTheme === "dark" ? "dark" : "light"}
      onEmojiClick={(data) => onPick(data.emoji)}
      categories={categories}
      autoFocusSearch={focusSearch}
      skinTonesDisabled
      previewConfig={{ showPreview: false }}
      suggestedEmojisMode={SuggestionMode.RECENT}
      width="100%"
      height={360}
    />
  );
}
