"use client";

import { useTranslations } from "next-intl";
import { LazyMenu } from "@/components/ui/lazy-radix";
import styles from "@/components/ui/menu.module.css";
import switches from "./switches.module.css";
import { ThemeIcon, ThemeRadioItems } from "./theme-options";

export function ThemeSwitch() {
  const t = useTranslations("theme");
  return (
    <LazyMenu trigger={{ className: switches.trigger, "aria-label": t("switch"), title: t("switch"), "data-testid": "theme-switch", children: <ThemeIcon /> }}>
      {(Menu) => (
        <Menu.Portal>
          <Menu.Content className={styles.content} align="end" sideOffset={8}>
            <Menu.Label className={styles.label}>{t("label")}</Menu.Label>
            <ThemeRadioItems />
          </Menu.Content>
        </Menu.Portal>
      )}
    </LazyMenu>
  );
}
