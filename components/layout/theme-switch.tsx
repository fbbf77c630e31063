"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import { useTranslations } from "next-intl";
import styles from "@/components/ui/menu.module.css";
import switches from "./switches.module.css";
import { ThemeIcon, ThemeRadioItems } from "./theme-options";

export function ThemeSwitch() {
  const t = useTranslations("theme");
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className={switches.trigger} aria-label={t("switch")} title={t("switch")} data-testid="theme-switch">
        <ThemeIcon />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className={styles.content} align="end" sideOffset={8}>
          <Menu.Label className={styles.label}>{t("label")}</Menu.Label>
          <ThemeRadioItems />
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
