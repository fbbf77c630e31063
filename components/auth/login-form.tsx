"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { EyeIcon, EyeOffIcon } from "@/components/ui/icons";
import { FormAlert, fieldStyles, TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { lazyResolver } from "@/lib/client/lazy-resolver";
import { messageText } from "@/lib/client/message-text";
import type { LoginInput } from "@/lib/validation/auth";
import styles from "./login-form.module.css";

// The shared schema, loaded with zod on the first keystroke or submit (docs/adr/0103).
const validation = lazyResolver<LoginInput>(async () => {
  const [{ zodResolver }, { loginInput }] = await Promise.all([import("@hookform/resolvers/zod"), import("@/lib/validation/auth")]);
  return zodResolver(loginInput);
});

/**
 * Sign-in: the shared schema checks the fields, the API checks the password. A refusal shows the
 * server's message (already in the user's language), else "Login failed" (spec section 8). On success
 * the user lands on `redirectTo`, which the page resolved from the route name in the query.
 */
export function LoginForm({ redirectTo }: { redirectTo: string }) {
  const t = useTranslations("auth");
  const tAll = useTranslations();
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useForm<LoginInput>({ resolver: validation.resolver });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      // A cookie session: the tokens stay in httpOnly cookies, never in this page's script (docs/adr/0113).
      await api("auth/login", { method: "POST", body: { ...values, session: "cookie" } });
    } catch (err) {
      if (err instanceof ApiError && err.issues.length > 0) {
        for (const issue of err.issues) {
          if (issue.path === "email" || issue.path === "password") setError(issue.path, { message: issue.message });
        }
      }
      setFailure(err instanceof ApiError && err.message ? err.message : tAll("errors.loginFailed"));
      throw err;
    }
    router.replace(redirectTo);
  });

  const busy = isSubmitting || isSubmitSuccessful;
  return (
    <form
      method="post"
      onInput={validation.preload}
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        // A refused sign-in is shown above; the rejection only keeps react-hook-form from "succeeding".
        onSubmit(event).catch(() => {});
      }}
    >
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <TextField
        label={t("email")}
        type="email"
        autoComplete="username"
        inputMode="email"
        autoFocus
        error={messageText(tAll, errors.email?.message)}
        {...register("email")}
      />
      <TextField
        label={t("password")}
        type={showPassword ? "text" : "password"}
        autoComplete="current-password"
        error={messageText(tAll, errors.password?.message)}
        addon={
          <button
            type="button"
            className={fieldStyles.addon}
            onClick={() => setShowPassword((v) => !v)}
            aria-label={showPassword ? t("hidePassword") : t("showPassword")}
            aria-pressed={showPassword}
          >
            {showPassword ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        }
        {...register("password")}
      />
      <Button type="submit" block large disabled={busy || !hydrated}>
        {busy ? t("submitting") : t("submit")}
      </Button>
    </form>
  );
}
