"use client";

// Loaded only when the composer's emoji button is first pressed (next/dynamic in composer.tsx), so the
// dialog page's first load does not carry the picker or its data (docs/adr/0134). The picker is
// emoji-picker-react: native emoji (nothing fetched from any CDN), its data shipped in the package and
// served as our own chunks; the Russian dataset (names and search words in Russian) loads as one more.

import EmojiPickerReact, { SuggestionMode, type EmojiDataLoader, type PickerLabels } from "emoji-picker-react";
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

export default function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
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
  return (
    <EmojiPickerReact
      // The Russian names also carry the Russian category names; English is the package's own dataset.
      emojiData={locale === "ru" ? loadRussian : undefined}
      lang={locale}
      labels={labels}
      colorScheme={resolvedTheme === "dark" ? "dark" : "light"}
      onEmojiClick={(data) => onPick(data.emoji)}
      autoFocusSearch
      skinTonesDisabled
      previewConfig={{ showPreview: false }}
      suggestedEmojisMode={SuggestionMode.RECENT}
      width="100%"
      height={360}
    />
  );
}
