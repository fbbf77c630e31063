"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { FormAlert, TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { lazyResolver } from "@/lib/client/lazy-resolver";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { applyServerErrors } from "./server-errors";
import styles from "./shift.module.css";

type Values = { email: string; password: string };

// The shared schema, loaded with zod on the first keystroke or submit (docs/adr/0103).
const validation = lazyResolver<Values>(async () => {
  const [{ zodResolver }, { emailChangeRequestInput }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/validation/auth")]);
  return zodResolver(emailChangeRequestInput);
});

/**
 * /shift-email, signed in: the new address and the current password → POST auth/change-email-link.
 * Nothing changes until the link mailed to that address is opened (/shift-email-confirm).
 */
export function ShiftEmailForm({ currentEmail }: { currentEmail: string }) {
  const t = useTranslations("identity");
  const tAll = useTranslations();
  const router = useRouter();
  const hydrated = useHydrated();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useForm<Values>({ resolver: validation.resolver });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await api("auth/change-email-link", { method: "POST", body: values });
    } catch (err) {
      // 409: the address belongs to another account; it is about the field, so it goes there.
      if (err instanceof ApiError && err.status === 409) setError("email", { type: "server", message: err.message }, { shouldFocus: true });
      else setFailure(applyServerErrors<Values>(err, ["email", "password"], setError, tAll("common.unknownError")));
      throw err;
    }
    notify({ status: "success", message: t("emailInstructionSent") });
    router.push("/shift-email-success");
  });

  const busy = isSubmitting || isSubmitSuccessful;
  return (
    <form method="post" onInput={validation.preload} className={styles.stack} noValidate onSubmit={(event) => void onSubmit(event).catch(() => {})}>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <p className={styles.target}>{t.rich("currentEmail", { email: currentEmail, b: (chunks) => <strong>{chunks}</strong> })}</p>
      <TextField
        label={t("newEmail")}
        type="email"
        inputMode="email"
        autoComplete="email"
        autoFocus
        error={messageText(tAll, errors.email?.message)}
        {...register("email")}
      />
      <TextField
        label={t("currentPassword")}
        type="password"
        autoComplete="current-password"
        error={messageText(tAll, errors.password?.message)}
        {...register("password")}
      />
      <Button type="submit" block large disabled={busy || !hydrated}>
        {busy ? t("sending") : t("sendConfirmation")}
      </Button>
    </form>
  );
}
