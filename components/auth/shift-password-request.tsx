"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CheckCircleIcon } from "@/components/ui/icons-more";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import styles from "./shift.module.css";

/** /shift-password, signed in: mails the account a link where the new password is set. */
export function ShiftPasswordRequest({ email }: { email: string }) {
  const t = useTranslations("identity");
  const tAll = useTranslations();
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [failure, setFailure] = useState<string | null>(null);

  const send = async () => {
    setState("sending");
    setFailure(null);
    try {
      await api("auth/change-password-link", { method: "POST" });
      setState("sent");
      notify({ status: "success", message: t("passwordLinkSentToast") });
    } catch (err) {
      setFailure(err instanceof ApiError && err.message ? err.message : tAll("common.unknownError"));
      setState("idle");
    }
  };

  if (state === "sent") {
    return (
      <div className={styles.sent} role="status">
        <CheckCircleIcon size={20} />
        <p>{t("passwordLinkSent", { email })}</p>
      </div>
    );
  }
  return (
    <div className={styles.stack}>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <p className={styles.target}>{t.rich("linkGoesTo", { email, b: (chunks) => <strong>{chunks}</strong> })}</p>
      <Button block large onClick={() => void send()} disabled={state === "sending"}>
        {state === "sending" ? t("sending") : t("sendLink")}
      </Button>
    </div>
  );
}
