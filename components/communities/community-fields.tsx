"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { AlertIcon } from "@/components/ui/icons";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { COMMUNITY_DESCRIPTION_MAX, COMMUNITY_NAME_MAX, COMMUNITY_TYPES, COMMUNITY_WALLS, type CommunityType, type CommunityWall } from "@/lib/validation/communities-shared";
import styles from "./communities.module.css";

export type CommunityValues = { name: string; description: string; type: CommunityType; wall: CommunityWall };
export type FieldErrors = Partial<Record<keyof CommunityValues, string>>;

/** Per-field texts of a 422 (issues by path); what names no field of the form is the form's own alert. */
export function useFieldErrors() {
  const tAll = useTranslations();
  return (err: unknown): { fields: FieldErrors; rest: boolean } => {
    const fields: FieldErrors = {};
    if (!(err instanceof ApiError) || err.issues.length === 0) return { fields, rest: true };
    let rest = false;
    for (const issue of err.issues) {
      const key = issue.path.split(".")[0] as keyof CommunityValues;
      if (["name", "description", "type", "wall"].includes(key)) fields[key] ??= messageText(tAll, issue.message) ?? issue.message;
      else rest = true;
    }
    return { fields, rest };
  };
}

function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p id={id} className={styles.fieldError} data-testid="field-error">
      <AlertIcon size={16} />
      <span>{text}</span>
    </p>
  );
}

/**
 * A community's own fields (issue 42), for its creation and its settings: the name, the description,
 * who reads it (open, closed, private — each with a line saying what it means) and who writes on its wall.
 */
export function CommunityFields({ values, onChange, errors, disabled }: { values: CommunityValues; onChange: (next: CommunityValues) => void; errors: FieldErrors; disabled?: boolean }) {
  const t = useTranslations("communities");
  const id = useId();
  const set = <K extends keyof CommunityValues>(key: K, value: CommunityValues[K]) => onChange({ ...values, [key]: value });
  return (
    <fieldset className={styles.fields} disabled={disabled}>
      <div className={styles.field}>
        <label htmlFor={`${id}-name`} className={styles.fieldLabel}>
          {t("nameLabel")}
        </label>
        <input
          id={`${id}-name`}
          className={styles.input}
          value={values.name}
          maxLength={COMMUNITY_NAME_MAX}
          placeholder={t("namePlaceholder")}
          onChange={(e) => set("name", e.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${id}-name-error` : undefined}
          autoComplete="off"
          data-autofocus
          data-testid="community-name"
        />
        <FieldError id={`${id}-name-error`} text={errors.name} />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-description`} className={styles.fieldLabel}>
          {t("descriptionLabel")}
        </label>
        <textarea
          id={`${id}-description`}
          className={`${styles.input} ${styles.textarea}`}
          value={values.description}
          rows={3}
          placeholder={t("descriptionPlaceholder")}
          onChange={(e) => set("description", e.target.value)}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${id}-description-error` : `${id}-description-count`}
          data-testid="community-description"
        />
        <p id={`${id}-description-count`} className={styles.counter} data-over={[...values.description.trim()].length > COMMUNITY_DESCRIPTION_MAX || undefined}>
          {[...values.description.trim()].length} / {COMMUNITY_DESCRIPTION_MAX}
        </p>
        <FieldError id={`${id}-description-error`} text={errors.description} />
      </div>
      <fieldset className={styles.choices} aria-describedby={errors.type ? `${id}-type-error` : undefined}>
        <legend className={styles.fieldLabel}>{t("typeLabel")}</legend>
        {COMMUNITY_TYPES.map((type) => (
          <label key={type} className={styles.choice} data-on={values.type === type || undefined}>
            <input type="radio" name={`${id}-type`} value={type} checked={values.type === type} onChange={() => set("type", type)} data-testid={`community-type-${type}`} />
            <span>
              <span className={styles.choiceTitle}>{t(`type.${type}`)}</span>
              <span className={styles.choiceHint}>{t(`typeHint.${type}`)}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${id}-type-error`} text={errors.type} />
      </fieldset>
      <fieldset className={styles.choices} aria-describedby={errors.wall ? `${id}-wall-error` : undefined}>
        <legend className={styles.fieldLabel}>{t("wallLabel")}</legend>
        {COMMUNITY_WALLS.map((wall) => (
          <label key={wall} className={styles.choice} data-on={values.wall === wall || undefined}>
            <input type="radio" name={`${id}-wall`} value={wall} checked={values.wall === wall} onChange={() => set("wall", wall)} data-testid={`community-wall-${wall}`} />
            <span>
              <span className={styles.choiceTitle}>{t(`wall.${wall}`)}</span>
              <span className={styles.choiceHint}>{t(`wallHint.${wall}`)}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${id}-wall-error`} text={errors.wall} />
      </fieldset>
    </fieldset>
  );
}
