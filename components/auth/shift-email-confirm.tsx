"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { CheckCircleIcon } from "@/components/ui/icons-more";
import { Spinner } from "@/components/ui/spinner";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { AuthNextStep } from "./auth-links";
import styles from "./shift.module.css";

type State = { status: "confirming" } | { status: "done"; email: string } | { status: "failed"; message: string; dead: boolean };

/**
 * /shift-email-confirm?secret=…: opening the link mailed to the new address applies the change
 * (PUT auth/email). It runs once per page view: the secret is single-use.
 */
export function ShiftEmailConfirm({ secret, signedIn }: { secret: string; signedIn: boolean }) {
  const t = useTranslations("identity");
  const tAll = useTranslations();
  const tCommon = useTranslations("common");
  const [state, setState] = useState<State>({ status: "confirming" });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    api<{ email: string }>("auth/email", { method: "PUT", body: { secret } })
      .then(({ email }) => setState({ status: "done", email }))
      .catch((err: unknown) => {
        const dead = err instanceof ApiError && (err.status === 404 || err.status === 422);
        const message = dead ? tAll("errors.linkInvalid") : err instanceof ApiError && err.message ? err.message : tAll("common.unknownError");
        setState({ status: "failed", message, dead });
      });
  }, [secret, tAll]);

  if (state.status === "confirming") return <Spinner label={t("confirming")} />;
  const next = signedIn ? (
    <AuthNextStep href="/settings" label={tCommon("backToSettings")} variant={state.status === "done" ? "primary" : "secondary"} />
  ) : (
    <AuthNextStep href="/login" label={tCommon("signIn")} variant={state.status === "done" ? "primary" : "secondary"} />
  );
  if (state.status === "failed") {
    return (
      <div className={styles.stack}>
        <FormAlert>{state.message}</FormAlert>
        {signedIn && state.dead ? <AuthNextStep href="/shift-email" label={t("requestNewLink")} /> : null}
        {next}
      </div>
    );
  }
  return (
    <div className={styles.stack}>
      <div className={styles.sent} role="status">
        <CheckCircleIcon size={20} />
        <p>{t.rich("emailConfirmed", { email: state.email, b: (chunks) => <strong>{chunks}</strong> })}</p>
      </div>
      {next}
    </div>
  );
}
