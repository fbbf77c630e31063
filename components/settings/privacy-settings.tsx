"use client";

import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { useHydrated } from "@/components/layout/use-hydrated";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { FRIEND_REQUESTS_FROM, MESSAGES_FROM, PROFILE_VISIBILITIES, type PrivacyPatch, type PrivacySettings as Privacy } from "@/lib/validation/privacy-shared";
import { FediverseName } from "./fediverse-name";
import { SelectField } from "./fields";
import styles from "./settings-form.module.css";

type Choice = "profileVisibility" | "messagesFrom" | "friendRequestsFrom";

/** The three choices: the field, its values, and the label key (its options are `<label>Option.<value>`). */
const CHOICES: { field: Choice; values: readonly string[]; label: "privacyProfile" | "privacyMessages" | "privacyRequests" }[] = [
  { field: "profileVisibility", values: PROFILE_VISIBILITIES, label: "privacyProfile" },
  { field: "messagesFrom", values: MESSAGES_FROM, label: "privacyMessages" },
  { field: "friendRequestsFrom", values: FRIEND_REQUESTS_FROM, label: "privacyRequests" },
];

/**
 * «Приватность» (issue 26 section 3, docs/adr/0125): three choices and two switches — search, and the
 * fediverse (issue 43) with its addresses and short name while it is on. A change shows at once
 * and is sent on its own (PUT account/privacy); the answer, which carries all four, is the truth
 * afterwards. Changes are sent one after another, so the last one is what the server keeps; a failed one
 * goes back and says so.
 */
export function PrivacySettings({ initial, accountId, host }: { initial: Privacy; accountId: number; host: string }) {
  const t = useTranslations("settings");
  const [settings, setSettings] = useState(initial);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const chain = useRef<Promise<unknown>>(Promise.resolve());

  function change(patch: PrivacyPatch | Partial<Record<Choice, string>>) {
    const before = settings;
    setSettings((s) => ({ ...s, ...patch }) as Privacy);
    setPending(true);
    chain.current = chain.current.then(async () => {
      try {
        setSettings(await api<Privacy>("account/privacy", { method: "PUT", body: patch }));
        notify({ status: "success", message: t("privacyChanged") });
      } catch {
        setSettings(before);
        notify({ status: "error", message: t("privacyFailed") });
      } finally {
        setPending(false);
      }
    });
  }

  const common = { disabled: !hydrated, "aria-busy": pending } as const;
  const closed = settings.profileVisibility !== "ALL";
  return (
    <div className={styles.form} data-testid="privacy-settings">
      {CHOICES.map(({ field, values, label }) => (
        <SelectField
          key={field}
          label={t(label)}
          hint={field === "profileVisibility" ? t("privacyProfileHint") : undefined}
          value={settings[field]}
          onChange={(e) => change({ [field]: e.target.value })}
          {...common}
        >
          {values.map((v) => (
            <option key={v} value={v}>
              {t(`${label}Option.${v}`)}
            </option>
          ))}
        </SelectField>
      ))}
      <ul className={styles.switches}>
        <SwitchRow
          field="searchable"
          label={t("privacySearchable")}
          hint={t("privacySearchableHint")}
          checked={settings.searchable}
          onChange={(on) => change({ searchable: on })}
          busy={pending}
          disabled={!hydrated}
        />
        <SwitchRow
          field="fediverse"
          label={t("fediverse")}
          hint={closed ? t("fediverseClosedHint") : t("fediverseHint")}
          checked={settings.fediverse}
          onChange={(on) => change({ fediverse: on })}
          busy={pending}
          disabled={!hydrated || (closed && !settings.fediverse)}
        />
      </ul>
      {settings.fediverse && !closed ? (
        <FediverseName accountId={accountId} host={host} settings={settings} onSaved={setSettings} disabled={!hydrated || pending} />
      ) : null}
    </div>
  );
}

/** One of the settings' switches, its label and its explanation. */
function SwitchRow({ field, label, hint, checked, onChange, busy, disabled }: { field: string; label: string; hint: string; checked: boolean; onChange: (on: boolean) => void; busy: boolean; disabled: boolean }) {
  return (
    <li className={styles.switchRow}>
      <label htmlFor={`privacy-${field}`} className={styles.switchLabel}>
        {label}
        <span className={styles.switchHint}>{hint}</span>
      </label>
      <input
        id={`privacy-${field}`}
        type="checkbox"
        role="switch"
        className={styles.switch}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-busy={busy}
        disabled={disabled}
      />
    </li>
  );
}
