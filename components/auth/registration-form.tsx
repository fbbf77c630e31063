"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { useForm, useWatch, type UseFormRegisterReturn } from "react-hook-form";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { AlertIcon } from "@/components/ui/icons";
import { fieldStyles, FormAlert, TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { lazyResolver } from "@/lib/client/lazy-resolver";
import { messageText } from "@/lib/client/message-text";
import type { RegisterFormInput, RegisterFormValues } from "@/lib/validation/auth";
import { NAME_MAX, stripName } from "@/lib/validation/name-rules";
import { CaptchaField } from "./captcha-field";
import { PasswordField } from "./password-field";
import { PasswordStrengthMeter } from "./password-strength";
import { PolicyLink } from "./policy-dialog";
import styles from "./registration-form.module.css";
import { applyServerErrors } from "./server-errors";
import { genderOf } from "@/lib/i18n/person-name";
import { useCaptcha } from "./use-captcha";

const ACCOUNT_FIELDS = ["firstName", "lastName", "email", "password1", "password2"] as const;
const ALL_FIELDS = [...ACCOUNT_FIELDS, "captchaCode", "captchaSecret", "consent"] as const;

/** Names keep only what the one name schema keeps (ADR 0050), already while typing. */
function nameInput(field: UseFormRegisterReturn) {
  return {
    ...field,
    maxLength: NAME_MAX,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const cleaned = stripName(event.target.value, { typing: true });
      if (cleaned !== event.target.value) event.target.value = cleaned;
      return field.onChange(event);
    },
  };
}

// The shared schema, loaded with zod on the first keystroke or submit (docs/adr/0103).
const validation = lazyResolver<RegisterFormInput, RegisterFormValues>(async () => {
  const [{ zodResolver }, { registerForm }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/validation/auth")]);
  return zodResolver(registerForm);
});

/**
 * Sign-up in two steps: the account (names, e-mail, password twice with the strength meter), then the
 * captcha and the privacy consent. The shared schema checks both steps; the server's refusals land
 * under their fields (an account field sends the user back to step one). Every refused attempt spends
 * the captcha on the server, so a fresh picture is loaded and the code cleared.
 */
export function RegistrationForm() {
  const t = useTranslations("identity");
  const tAuth = useTranslations("auth");
  const tAll = useTranslations();
  const router = useRouter();
  const hydrated = useHydrated();
  const [step, setStep] = useState<1 | 2>(1);
  const [failure, setFailure] = useState<string | null>(null);
  const captcha = useCaptcha(step === 2);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const [moved, setMoved] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    trigger,
    control,
    subscribe,
    getValues,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useForm<RegisterFormInput, unknown, RegisterFormValues>({
    resolver: validation.resolver,
    defaultValues: { firstName: "", lastName: "", email: "", password1: "", password2: "", captchaCode: "", captchaSecret: "", consent: false },
  });
  const text = (message: string | undefined) => messageText(tAll, message);

  const secret = captcha.state.status === "ready" ? captcha.state.secret : "";
  useEffect(() => setValue("captchaSecret", secret), [secret, setValue]);

  // Moving between the steps puts the keyboard focus on the new step's heading (not on the first paint).
  useEffect(() => {
    if (moved) stepHeading.current?.focus();
  }, [step, moved]);
  const goTo = (next: 1 | 2) => {
    setMoved(true);
    setFailure(null);
    setStep(next);
  };

  // Once "Next" has been pressed, a corrected field loses its error as the user types (as after a submit).
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (!checked) return;
    return subscribe({
      formState: { values: true },
      callback: ({ name }) => {
        const field = ACCOUNT_FIELDS.find((f) => f === name);
        if (!field) return;
        void trigger(field === "password1" && getValues("password2") ? ["password1", "password2"] : field);
      },
    });
  }, [checked, subscribe, trigger, getValues]);

  const toCaptcha = async () => {
    setChecked(true);
    if (await trigger(ACCOUNT_FIELDS, { shouldFocus: true })) goTo(2);
  };

  const onSubmit = handleSubmit(async ({ consent: _consent, ...body }) => {
    setFailure(null);
    try {
      await api("auth/register", { method: "POST", body });
    } catch (err) {
      const left = applyServerErrors<RegisterFormInput>(err, ALL_FIELDS, setError, tAll("common.unknownError"));
      if (err instanceof ApiError && err.status === 409) setError("email", { type: "server", message: err.message });
      const accountField = err instanceof ApiError && (err.status === 409 || err.issues.some((i) => (ACCOUNT_FIELDS as readonly string[]).includes(i.path)));
      setFailure(err instanceof ApiError && err.status === 409 ? null : left);
      setValue("captchaCode", "");
      captcha.reload();
      if (accountField) goTo(1);
      throw err;
    }
    router.push("/registration-success");
  });

  const busy = isSubmitting || isSubmitSuccessful;
  const password1 = useWatch({ control, name: "password1" });
  // "Я прочитала" or "Я прочитал", from the names typed on step one (ADR 0051).
  const [firstName, lastName] = useWatch({ control, name: ["firstName", "lastName"] });
  return (
    <form
      method="post"
      onInput={validation.preload}
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        if (step === 1) {
          event.preventDefault();
          void toCaptcha();
          return;
        }
        // A refusal is shown in the form; the rejection only keeps react-hook-form from "succeeding".
        onSubmit(event).catch(() => {});
      }}
    >
      <div className={styles.steps}>
        <p className={styles.stepCount}>{t("step", { current: step, total: 2 })}</p>
        <h2 className={styles.stepTitle} ref={stepHeading} tabIndex={-1}>
          {step === 1 ? t("stepAccount") : t("stepCheck")}
        </h2>
        <div className={styles.progress} aria-hidden="true">
          <span className={styles.done} />
          <span className={step === 2 ? styles.done : styles.upcoming} />
        </div>
      </div>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {step === 1 ? (
        <>
          <div className={styles.names}>
            <TextField label={t("firstName")} autoComplete="given-name" autoFocus error={text(errors.firstName?.message)} {...nameInput(register("firstName"))} />
            <TextField label={t("lastName")} autoComplete="family-name" error={text(errors.lastName?.message)} {...nameInput(register("lastName"))} />
          </div>
          <TextField label={tAuth("email")} type="email" inputMode="email" autoComplete="email" error={text(errors.email?.message)} {...register("email")} />
          <PasswordField label={tAuth("password")} autoComplete="new-password" error={text(errors.password1?.message)} {...register("password1")}>
            <PasswordStrengthMeter password={password1} />
          </PasswordField>
          <PasswordField label={t("password2")} autoComplete="new-password" error={text(errors.password2?.message)} {...register("password2")} />
          <Button type="submit" block large disabled={!hydrated}>
            {t("next")}
          </Button>
        </>
      ) : (
        <>
          <CaptchaField
            state={captcha.state}
            onRefresh={() => {
              setValue("captchaCode", "");
              captcha.reload();
            }}
            autoFocus
            error={text(errors.captchaCode?.message ?? errors.captchaSecret?.message)}
            {...register("captchaCode")}
          />
          <div className={styles.consent}>
            <input
              id="registration-consent"
              type="checkbox"
              className={styles.checkbox}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? "registration-consent-error" : undefined}
              {...register("consent")}
            />
            <div className={styles.consentBody}>
              <label htmlFor="registration-consent" className={styles.consentText}>
                {t("consent", { gender: genderOf({ firstName: firstName ?? "", lastName }) })}
              </label>
              <div className={styles.documents}>
                <PolicyLink kind="privacy">{t("privacyTitle")}</PolicyLink>
                <PolicyLink kind="transfer">{t("transferTitle")}</PolicyLink>
              </div>
            </div>
          </div>
          {errors.consent ? (
            <p id="registration-consent-error" className={fieldStyles.error}>
              <AlertIcon size={16} />
              <span>{text(errors.consent.message)}</span>
            </p>
          ) : null}
          <div className={styles.actions}>
            <Button variant="secondary" large onClick={() => goTo(1)} disabled={busy}>
              {t("back")}
            </Button>
            <Button type="submit" large className={styles.submit} disabled={busy || captcha.state.status !== "ready"}>
              {busy ? t("registering") : t("register")}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
