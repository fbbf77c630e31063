"use client";

import { useTranslations } from "next-intl";
import { useTheme } from "next-themes";
import { CheckIcon, MonitorIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { useRadixMenu } from "@/components/ui/lazy-radix";
import styles from "@/components/ui/menu.module.css";
import { useHydrated } from "./use-hydrated";

export const THEMES = [
  { value: "light", Icon: SunIcon },
  { value: "dark", Icon: MoonIcon },
  { value: "system", Icon: MonitorIcon },
] as const;

/** The theme choice as radio items, for any LazyMenu (the header switch, the profile menu, the phone's "more"). */
export function ThemeRadioItems() {
  const Menu = useRadixMenu();
  const t = useTranslations("theme");
  const { theme, setTheme } = useTheme();
  const hydrated = useHydrated();
  return (
    <Menu.RadioGroup value={hydrated ? (theme ?? "system") : ""} onValueChange={setTheme}>
      {THEMES.map(({ value, Icon }) => (
        <Menu.RadioItem key={value} value={value} className={styles.item}>
          <Icon size={18} />
          <span className={styles.itemText}>{t(value)}</span>
          <Menu.ItemIndicator className={styles.indicator}>
            <CheckIcon size={16} />
          </Menu.ItemIndicator>
        </Menu.RadioItem>
      ))}
    </Menu.RadioGroup>
  );
}

/** The icon of the chosen theme (a neutral one until the browser has told us). */
export function ThemeIcon({ size = 20 }: { size?: number }) {
  const { theme } = useTheme();
  const hydrated = useHydrated();
  const found = THEMES.find((x) => x.value === (hydrated ? theme : "system")) ?? THEMES[2];
  return <found.Icon size={size} />;
}
