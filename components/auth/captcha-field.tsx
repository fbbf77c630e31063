"use client";

import { useTranslations } from "next-intl";
import type { InputHTMLAttributes, Ref } from "react";
import { Spinner } from "@/components/ui/spinner";
import { TextField } from "@/components/ui/text-field";
import styles from "./captcha-field.module.css";
import type { CaptchaState } from "./use-captcha";

/** The captcha step: the distorted picture, a refresh button and the code input. */
export function CaptchaField({
  state,
  onRefresh,
  error,
  ref,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { state: CaptchaState; onRefresh: () => void; error?: string; ref?: Ref<HTMLInputElement> }) {
  const t = useTranslations("identity");
  return (
    <fieldset className={styles.captcha}>
      <legend className={styles.legend}>{t("captchaTitle")}</legend>
      <p className={styles.text}>{t("captchaText")}</p>
      <div className={styles.row}>
        <div className={styles.picture} aria-busy={state.status === "loading"}>
          {state.status === "ready" ? (
            // A data URL made by our server; next/image would add nothing here.
            // eslint-disable-next-line @next/next/no-img-element
            <img src={state.image} alt={t("captchaAlt")} className={styles.image} data-testid="captcha-image" />
          ) : state.status === "loading" ? (
            <Spinner label={t("captchaLoading")} />
          ) : (
            <p className={styles.failed} role="alert">
              {t("captchaFailed")}
            </p>
          )}
        </div>
        <button type="button" className={styles.refresh} onClick={onRefresh} disabled={state.status === "loading"}>
          <RefreshIcon />
          <span>{t("captchaRefresh")}</span>
        </button>
      </div>
      <TextField
        ref={ref}
        label={t("captchaCode")}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        error={error}
        {...input}
      />
    </fieldset>
  );
}

function RefreshIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M20 11a8 8 0 0 0-14.6-4.5M4 4v4h4" />
      <path d="M4 13a8 8 0 0 0 14.6 4.5M20 20v-4h-4" />
    </svg>
  );
}
