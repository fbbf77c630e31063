"use client";

import { useTranslations } from "next-intl";
import { CheckIcon } from "@/components/ui/icons";
import { useRadixMenu } from "@/components/ui/lazy-radix";
import styles from "@/components/ui/menu.module.css";
import { LOCALES } from "@/lib/i18n/config";
import { useLanguage } from "./use-language";

/** The language choice as radio items, for any LazyMenu. Language names stay in their own language. */
export function LanguageRadioItems() {
  const Menu = useRadixMenu();
  const t = useTranslations("language");
  const { locale, change } = useLanguage();
  return (
    <Menu.RadioGroup value={locale} onValueChange={change}>
      {LOCALES.map((value) => (
        <Menu.RadioItem key={value} value={value} className={styles.item} lang={value}>
          <span className={styles.itemText}>{t(value)}</span>
          <span className={styles.hint}>{value.toUpperCase()}</span>
          <Menu.ItemIndicator className={styles.indicator}>
            <CheckIcon size={16} />
          </Menu.ItemIndicator>
        </Menu.RadioItem>
      ))}
    </Menu.RadioGroup>
  );
}
