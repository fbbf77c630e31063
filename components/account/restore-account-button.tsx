"use client";

import { useTranslations } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";

/** PUT account/me {isDeleted: false}, then the own page (spec section 2). */
export function RestoreAccountButton() {
  const t = useTranslations("deletedAccount");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const hydrated = useHydrated();

  async function restore() {
    setBusy(true);
    setFailure(null);
    try {
      await api("account/me", { method: "PUT", body: { isDeleted: false } });
      router.replace("/profile");
      router.refresh(); // the layout drops this screen and brings back search and the bell
    } catch (err) {
      setFailure(err instanceof ApiError && err.message ? err.message : t("restoreFailed"));
      setBusy(false);
    }
  }

  return (
    <>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <Button large disabled={busy || !hydrated} onClick={() => void restore()}>
        {busy ? t("restoring") : t("restore")}
      </Button>
    </>
  );
}
