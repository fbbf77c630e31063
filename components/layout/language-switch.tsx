"use client";

import { useTranslations } from "next-intl";
import { GlobeIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import styles from "@/components/ui/menu.module.css";
import { LanguageRadioItems } from "./language-options";
import switches from "./switches.module.css";
import { useLanguage } from "./use-language";

export function LanguageSwitch() {
  const t = useTranslations("language");
  const { locale } = useLanguage();
  const trigger = {
    className: switches.trigger,
    "aria-label": t("switch"),
    title: t("switch"),
    "data-testid": "language-switch",
    children: (
      <>
        <GlobeIcon size={18} />
        <span aria-hidden="true">{locale.toUpperCase()}</span>
      </>
    ),
  };
  return (
    <LazyMenu trigger={trigger}>
      {(Menu) => (
        <Menu.Portal>
          <Menu.Content className={styles.content} align="end" sideOffset={8}>
            <Menu.Label className={styles.label}>{t("label")}</Menu.Label>
            <LanguageRadioItems />
          </Menu.Content>
        </Menu.Portal>
      )}
    </LazyMenu>
  );
}
