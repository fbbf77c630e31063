"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { api, ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import type { DialogDto } from "@/lib/validation/dialogs";

/**
 * "Write a message" from a profile (/im?recipientId=…): the dialog with that person, created when
 * there is none yet (spec section 8: a 404 creates it), then its page in place of this one. The page
 * has already asked for the dialog on the server (the 404 of GET dialogs/recipientId/{id}) and renders
 * this only when there was none, so the browser goes straight to POST dialogs: asking GET again would
 * only log its expected 404 as an error in the console (issue 24 item 14, docs/adr/0117).
 */
export function DialogOpener({ recipientId }: { recipientId: number }) {
  const t = useTranslations();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // One dialog per pair: a POST when one exists after all (another tab, a double effect) answers it (200).
      const dialog = await api<DialogDto>("dialogs", { method: "POST", body: { recipientId } });
      // A full load in place of this entry (Back returns to the profile, not to this step): the chat
      // page then renders its history on the server like any other visit.
      if (!cancelled) window.location.replace(`/im/${dialog.id}`);
    })().catch((err: unknown) => {
      console.error("opening the dialog failed", err);
      if (!cancelled) setError(err instanceof ApiError ? (messageText(t, err.message) ?? err.message) : t("im.loadFailed"));
    });
    return () => {
      cancelled = true;
    };
  }, [recipientId, t]);

  if (error) {
    return (
      <EmptyState icon={<AlertIcon size={28} />} title={t("im.openFailedTitle")} text={error}>
        <ButtonLink href="/im">{t("im.toDialogs")}</ButtonLink>
      </EmptyState>
    );
  }
  return <Spinner label={t("im.opening")} />;
}
