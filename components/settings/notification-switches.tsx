"use client";

import { useTranslations } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { NOTIFICATION_SETTING_FIELDS, NOTIFICATION_SETTING_TYPES, type NotificationSettingType } from "@/lib/validation/account";
import styles from "./settings-form.module.css";

export type NotificationSettings = Record<(typeof NOTIFICATION_SETTING_FIELDS)[NotificationSettingType], boolean>;

/**
 * The seven switches (spec section 3). A flip shows at once and is sent on its own
 * (PUT notifications/settings); the answer, which carries all seven, is the truth afterwards.
 * A failed flip goes back and says so.
 */
export function NotificationSwitches({ initial }: { initial: NotificationSettings }) {
  const t = useTranslations("settings");
  const [settings, setSettings] = useState(initial);
  const [pending, setPending] = useState<ReadonlySet<NotificationSettingType>>(new Set());
  // Flips of one switch are sent one after another, so the last click is what the server keeps.
  const hydrated = useHydrated();
  const chain = useRef<Promise<unknown>>(Promise.resolve());

  function flip(type: NotificationSettingType, enable: boolean) {
    const field = NOTIFICATION_SETTING_FIELDS[type];
    setSettings((s) => ({ ...s, [field]: enable }));
    setPending((p) => new Set(p).add(type));
    chain.current = chain.current.then(async () => {
      try {
        const answer = await api<NotificationSettings>("notifications/settings", { method: "PUT", body: { notificationType: type, enable } });
        setSettings(answer);
        notify({ status: "success", message: t("notificationsChanged") });
      } catch {
        setSettings((s) => ({ ...s, [field]: !enable }));
        notify({ status: "error", message: t("notificationsFailed") });
      } finally {
        setPending((p) => {
          const next = new Set(p);
          next.delete(type);
          return next;
        });
      }
    });
  }

  return (
    <ul className={styles.switches}>
      {NOTIFICATION_SETTING_TYPES.map((type) => {
        const field = NOTIFICATION_SETTING_FIELDS[type];
        const id = `notify-${type}`;
        return (
          <li key={type} className={styles.switchRow}>
            <label htmlFor={id} className={styles.switchLabel}>
              {t(`notificationType.${type}`)}
            </label>
            <input
              id={id}
              type="checkbox"
              role="switch"
              className={styles.switch}
              checked={settings[field]}
              disabled={!hydrated}
              aria-busy={pending.has(type)}
              onChange={(e) => flip(type, e.target.checked)}
            />
          </li>
        );
      })}
    </ul>
  );
}
