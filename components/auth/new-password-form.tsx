"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { lazyResolver } from "@/lib/client/lazy-resolver";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import type { NewPasswordForm as Values } from "@/lib/validation/auth";
import styles from "./login-form.module.css";
import { PasswordField } from "./password-field";
import { PasswordStrengthMeter } from "./password-strength";
import { applyServerErrors } from "./server-errors";

// The shared schema, loaded with zod on the first keystroke or submit (docs/adr/0103).
const validation = lazyResolver<Values>(async () => {
  const [{ zodResolver }, { newPasswordForm }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/validation/auth")]);
  return zodResolver(newPasswordForm);
});

/**
 * The new password, twice, from a mailed link. `recovery` (/change-password/{secret}, signed out):
 * POST auth/password/recovery/{secret}. `change` (/shift-password?secret=…, from settings):
 * PUT auth/password, which keeps this browser signed in when it is the account's own.
 */
export function NewPasswordForm({ mode, secret }: { mode: "recovery" | "change"; secret: string }) {
  const t = useTranslations("identity");
  const tAll = useTranslations();
  const router = useRouter();
  const hydrated = useHydrated();
  const [failure, setFailure] = useState<{ message: string; deadLink: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useForm<Values>({ resolver: validation.resolver });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let signedIn = false;
    try {
      if (mode === "recovery") {
        await api(`auth/password/recovery/${encodeURIComponent(secret)}`, { method: "POST", body: { password: values.password1 } });
      } else {
        const res = await api<{ signedIn: boolean }>("auth/password", { method: "PUT", body: { secret, ...values } });
        signedIn = res.signedIn;
      }
    } catch (err) {
      const left = applyServerErrors<Values>(err, ["password1", "password2"], setError, tAll("common.unknownError"), { password: "password1" });
      // 404: the link is unknown, spent or expired; a 422 about the secret means the same to a person.
      const deadLink = err instanceof ApiError && (err.status === 404 || err.issues.some((i) => i.path === "secret"));
      if (left) setFailure({ message: deadLink ? tAll("errors.linkInvalid") : left, deadLink });
      throw err;
    }
    notify({ status: "success", message: t("passwordChanged") });
    if (signedIn) {
      router.push("/settings");
      router.refresh();
    } else {
      router.push("/change-password-success");
    }
  });

  const busy = isSubmitting || isSubmitSuccessful;
  const password1 = useWatch({ control, name: "password1" });
  return (
    <form method="post" onInput={validation.preload} className={styles.form} noValidate onSubmit={(event) => void onSubmit(event).catch(() => {})}>
      {failure ? (
        <FormAlert>
          {failure.message}
          {failure.deadLink ? (
            <>
              {" "}
              <Link href={mode === "recovery" ? "/forgot" : "/shift-password"}>{t("requestNewLink")}</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <PasswordField label={t("newPassword")} autoComplete="new-password" autoFocus error={messageText(tAll, errors.password1?.message)} {...register("password1")}>
        <PasswordStrengthMeter password={password1 ?? ""} />
      </PasswordField>
      <PasswordField label={t("repeatNewPassword")} autoComplete="new-password" error={messageText(tAll, errors.password2?.message)} {...register("password2")} />
      <Button type="submit" block large disabled={busy || !hydrated}>
        {busy ? t("saving") : t("savePassword")}
      </Button>
    </form>
  );
}
