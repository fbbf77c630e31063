"use client";

import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { isLocale } from "@/lib/i18n/config";
import { cookieLanguage, saveLanguage, storedLanguage } from "@/lib/client/language";
import { notify } from "@/lib/client/notify";
import { takeAnnouncement } from "./language-announce";

/**
 * The language choice lives in localStorage (spec) and in a cookie (for the server). On first load,
 * if they disagree — an old cookie, a cleared cookie — the stored choice wins: the cookie is fixed and
 * the page re-rendered once. With nothing stored yet, the language in use is stored.
 */
export function LocaleSync() {
  const locale = useLocale();
  const router = useRouter();
  const t = useTranslations("language");

  useEffect(() => {
    const stored = storedLanguage();
    if (!stored) {
      if (isLocale(locale)) saveLanguage(locale);
      return;
    }
    if (stored !== cookieLanguage()) {
      saveLanguage(stored);
      if (stored !== locale) router.refresh();
    }
    // Only on the first mount: later changes go through the language switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Runs once the re-render in the new language has arrived, so the toast speaks that language.
  useEffect(() => {
    const changed = takeAnnouncement(locale);
    if (changed) notify({ status: "success", message: t("changed", { language: t(changed) }) });
  }, [locale, t]);

  return null;
}
