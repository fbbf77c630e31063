"use client";

import { useLocale } from "next-intl";
import { useRouter } from "next/navigation";
import { useCallback, useTransition } from "react";
import { isLocale, type Locale } from "@/lib/i18n/config";
import { saveLanguage } from "@/lib/client/language";
import { announceLanguage } from "./language-announce";

/** The current language and a switch that saves it and re-renders the page on the server in it. */
export function useLanguage() {
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const change = useCallback(
    (next: string) => {
      if (!isLocale(next) || next === locale) return;
      saveLanguage(next as Locale);
      announceLanguage(next as Locale);
      startTransition(() => router.refresh());
    },
    [locale, router],
  );
  return { locale: locale as Locale, change, pending };
}
