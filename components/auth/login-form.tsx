"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { EyeIcon, EyeOffIcon } from "@/components/ui/icons-more";
import { FormAlert, fieldStyles, TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import type { LoginInput } from "@/lib/validation/auth";
import styles from "./login-form.module.css";

type Field = "email" | "password";
type Errors = Partial<Record<Field, string>>;

// The shared schema, loaded with zod on the first keystroke or submit (docs/adr/0103). Should the chunk
// fail to load, the values go to the server unchecked: the API validates them and the form shows its answer.
let schema: Promise<typeof import("@/lib/validation/auth").loginInput> | null = null;
const loadSchema = () =>
  (schema ??= import("@/lib/validation/auth").then(
    (m) => m.loginInput,
    (err: unknown) => {
      schema = null;
      throw err;
    },
  ));

/** The form's values checked by the shared schema: the parsed values, or the first message per field. */
async function check(form: HTMLFormElement): Promise<{ values: LoginInput; errors: Errors }> {
  const raw = { email: (form.elements.namedItem("email") as HTMLInputElement).value, password: (form.elements.namedItem("password") as HTMLInputElement).value };
  let loginInput;
  try {
    loginInput = await loadSchema();
  } catch {
    return { values: raw, errors: {} };
  }
  const parsed = loginInput.safeParse(raw);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === "email" || field === "password") && !errors[field]) errors[field] = issue.message;
  }
  return { values: raw, errors };
}

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
  // Two fields need no form library (react-hook-form stays off the first page a visitor opens; ADR 0124):
  // the fields are checked on submit, and after a first submit again as they are typed in; the first
  // field in error takes the focus; the button stays busy from submit until the next page.
  const [errors, setErrors] = useState<Errors>({});
  const [state, setState] = useState<"idle" | "submitting" | "done">("idle");
  const submitted = useRef(false);

  async function onInput(event: FormEvent<HTMLFormElement>) {
    loadSchema().catch(() => {});
    if (!submitted.current) return;
    const form = event.currentTarget;
    setErrors((await check(form)).errors);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state !== "idle") return;
    const form = event.currentTarget;
    submitted.current = true;
    setState("submitting");
    const { values, errors: found } = await check(form);
    setErrors(found);
    const first = (["email", "password"] as const).find((f) => found[f]);
    if (first) {
      (form.elements.namedItem(first) as HTMLInputElement).focus();
      setState("idle");
      return;
    }
    setFailure(null);
    try {
      // A cookie session: the tokens stay in httpOnly cookies, never in this page's script (docs/adr/0113).
      await api("auth/login", { method: "POST", body: { ...values, session: "cookie" } });
    } catch (err) {
      const fromServer: Errors = {};
      if (err instanceof ApiError) for (const issue of err.issues) if (issue.path === "email" || issue.path === "password") fromServer[issue.path] ??= issue.message;
      setErrors(fromServer);
      setFailure(err instanceof ApiError && err.message ? err.message : tAll("errors.loginFailed"));
      setState("idle");
      return;
    }
    setState("done");
    router.replace(redirectTo);
  }

  const busy = state !== "idle";
  return (
    <form method="post" onInput={(event) => void onInput(event)} className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <TextField
        label={t("email")}
        type="email"
        autoComplete="username"
        inputMode="email"
        autoFocus
        name="email"
        error={messageText(tAll, errors.email)}
      />
      <TextField
        label={t("password")}
        type={showPassword ? "text" : "password"}
        autoComplete="current-password"
        name="password"
        error={messageText(tAll, errors.password)}
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
      />
      <Button type="submit" block large disabled={busy || !hydrated}>
        {busy ? t("submitting") : t("submit")}
      </Button>
    </form>
  );
}
