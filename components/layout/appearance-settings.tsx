"use client";

import { useTranslations } from "next-intl";
import { useTheme } from "next-themes";
import { LOCALES } from "@/lib/i18n/config";
import styles from "./appearance-settings.module.css";
import { THEMES } from "./theme-options";
import { useHydrated } from "./use-hydrated";
import { useLanguage } from "./use-language";

/** Theme and language as two labelled radio groups (native inputs: arrow keys work as everywhere). */
export function AppearanceSettings() {
  const tTheme = useTranslations("theme");
  const tLang = useTranslations("language");
  const { theme, setTheme } = useTheme();
  const hydrated = useHydrated();
  const { locale, change } = useLanguage();
  return (
    <div className={styles.groups}>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{tTheme("label")}</legend>
        <div className={styles.options}>
          {THEMES.map(({ value, Icon }) => (
            <label key={value} className={styles.option}>
              <input
                type="radio"
                name="theme"
                value={value}
                checked={hydrated && (theme ?? "system") === value}
                onChange={() => setTheme(value)}
              />
              <Icon size={18} />
              <span>{tTheme(value)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{tLang("label")}</legend>
        <div className={styles.options}>
          {LOCALES.map((value) => (
            <label key={value} className={styles.option} lang={value}>
              <input type="radio" name="language" value={value} checked={locale === value} onChange={() => change(value)} />
              <span>{tLang(value)}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
