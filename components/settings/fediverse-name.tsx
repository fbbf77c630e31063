"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { FEDIVERSE_NAME_PATTERN, type PrivacySettings } from "@/lib/validation/privacy-shared";
import styles from "./settings-form.module.css";

/**
 * The fediverse addresses of a federating account (issue 43): `id<N>@host` always, and the short one of
 * its choice, which it sets, changes or gives up here (PUT account/privacy {fediverseName}).
 */
export function FediverseName({
  accountId,
  host,
  settings,
  onSaved,
  disabled,
}: {
  accountId: number;
  host: string;
  settings: PrivacySettings;
  onSaved: (s: PrivacySettings) => void;
  disabled: boolean;
}) {
  const t = useTranslations("settings");
  const [name, setName] = useState(settings.fediverseName ?? "");
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const wanted = name.trim() === "" ? null : name.trim();
  const unchanged = wanted === settings.fediverseName;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (wanted !== null && !FEDIVERSE_NAME_PATTERN.test(wanted)) {
      setError(t("fediverseNameRule"));
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const saved = await api<PrivacySettings>("account/privacy", { method: "PUT", body: { fediverseName: wanted } });
      onSaved(saved);
      setName(saved.fediverseName ?? "");
      notify({ status: "success", message: t("fediverseNameSaved") });
    } catch (err) {
      setError(err instanceof ApiError && err.status < 500 ? err.message : t("privacyFailed"));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className={styles.fediverse} data-testid="fediverse-address">
      <p className={styles.fediverseAddresses}>
        {t("fediverseAddress")}{" "}
        <code>
          id{accountId}@{host}
        </code>
        {settings.fediverseName ? (
          <>
            {" · "}
            <code>
              {settings.fediverseName}@{host}
            </code>
          </>
        ) : null}
      </p>
      <form className={styles.fediverseForm} onSubmit={save} noValidate>
        <TextField
          label={t("fediverseName", { host })}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
          maxLength={32}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder="durov"
          error={error}
          disabled={disabled}
        />
        <Button type="submit" variant="secondary" disabled={disabled || saving || unchanged} aria-busy={saving}>
          {saving ? t("saving") : t("save")}
        </Button>
      </form>
      <p className={styles.switchHint}>{t("fediverseNameHint")}</p>
    </div>
  );
}
