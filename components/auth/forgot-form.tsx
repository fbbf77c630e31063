"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { FormAlert, TextField } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { lazyResolver } from "@/lib/client/lazy-resolver";
import { messageText } from "@/lib/client/message-text";
import styles from "./login-form.module.css";
import { applyServerErrors } from "./server-errors";

type Values = { email: string };

// The shared schema, loaded with zod on the first keystroke or submit (docs/adr/0103).
const validation = lazyResolver<Values>(async () => {
  const [{ zodResolver }, { recoveryRequestInput }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/validation/auth")]);
  return zodResolver(recoveryRequestInput);
});

/**
 * Password recovery: the address → POST auth/password/recovery/. The server answers the same for any
 * address (no account enumeration), so the next page only says "check your inbox".
 */
export function ForgotForm() {
  const t = useTranslations("identity");
  const tAuth = useTranslations("auth");
  const tAll = useTranslations();
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useForm<Values>({ resolver: validation.resolver });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await api("auth/password/recovery/", { method: "POST", body: values });
    } catch (err) {
      setFailure(applyServerErrors<Values>(err, ["email"], setError, tAll("common.unknownError")));
      throw err;
    }
    router.push("/forgot-success");
  });

  const busy = isSubmitting || isSubmitSuccessful;
  return (
    <form method="post" onInput={validation.preload} className={styles.form} noValidate onSubmit={(event) => void onSubmit(event).catch(() => {})}>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <TextField
        label={tAuth("email")}
        type="email"
        inputMode="email"
        autoComplete="email"
        autoFocus
        error={messageText(tAll, errors.email?.message)}
        {...register("email")}
      />
      <Button type="submit" block large disabled={busy || !hydrated}>
        {busy ? t("sending") : t("sendLink")}
      </Button>
    </form>
  );
}
