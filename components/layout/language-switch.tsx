"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import { useTranslations } from "next-intl";
import { GlobeIcon } from "@/components/ui/icons";
import styles from "@/components/ui/menu.module.css";
import { LanguageRadioItems } from "./language-options";
import switches from "./switches.module.css";
import { useLanguage } from "./use-language";

export function LanguageSwitch() {
  const t = useTranslations("language");
  const { locale } = useLanguage();
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className={switches.trigger} aria-label={t("switch")} title={t("switch")} data-testid="language-switch">
        <GlobeIcon size={18} />
        <span aria-hidden="true">{locale.toUpperCase()}</span>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className={styles.content} align="end" sideOffset={8}>
          <Menu.Label className={styles.label}>{t("label")}</Menu.Label>
          <LanguageRadioItems />
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
