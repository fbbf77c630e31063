"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import own from "./fediverse-servers.module.css";
import { ReasonField } from "./reason-field";

/** A host as the server takes it: letters, digits, dots and hyphens, an optional port (checked again there). */
const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?$/i;

/**
 * An administrator blocks a whole fediverse server (issue 43): its host and the required reason, the same
 * reason field as every moderation action; the list re-renders on the server after it.
 */
export function BlockServerForm() {
  const t = useTranslations("admin");
  const router = useRouter();
  const [host, setHost] = useState("");
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cleanHost = host.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/\/.*$/, "");
  const hostError = tried && !HOST.test(cleanHost) ? t("serverHostInvalid") : undefined;
  async function submit(event?: FormEvent) {
    event?.preventDefault();
    setTried(true);
    if (!HOST.test(cleanHost) || !reason.trim()) return;
    setBusy(true);
    setFailure(null);
    try {
      await api(`admin/fediverse/servers/${encodeURIComponent(cleanHost)}/block`, { method: "PUT", body: { reason: reason.trim() } });
      notify({ status: "success", message: t("serverBlockedDone", { host: cleanHost }) });
      setHost("");
      setReason("");
      setTried(false);
      router.refresh();
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : t("actionFailed"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className={own.form} onSubmit={(e) => void submit(e)} data-testid="block-server-form">
      <TextField
        label={t("serverHost")}
        value={host}
        maxLength={260}
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        error={hostError}
        onChange={(e) => setHost(e.target.value)}
      />
      <ReasonField value={reason} missing={tried} onChange={setReason} onEnter={() => void submit()} />
      {failure ? (
        <p role="alert" className={own.failure}>
          {failure}
        </p>
      ) : null}
      <div className={own.submit}>
        <Button type="submit" disabled={busy} data-testid="block-server">
          {t("serverBlock")}
        </Button>
      </div>
    </form>
  );
}
