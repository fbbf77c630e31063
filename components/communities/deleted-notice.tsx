"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { CommunitiesIcon } from "@/components/ui/icons";
import { FormAlert } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { useFailureText } from "./community-text";

/** What the owner sees of a deleted community (issue 42): until when it can be restored, and the button. */
export function DeletedNotice({ community }: { community: CommunityDto }) {
  const t = useTranslations("communities");
  const format = useFormatter();
  const { zone: timeZone } = useReaderTimeZone();
  const router = useRouter();
  const failureText = useFailureText();
  const [pending, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const until = community.restoreUntil ? format.dateTime(new Date(community.restoreUntil), { day: "numeric", month: "long", year: "numeric", timeZone }) : null;

  async function restore() {
    setBusy(true);
    setFailure(null);
    try {
      await api(`communities/${community.id}/restore`, { method: "POST" });
      startTransition(() => router.refresh());
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card data-testid="community-deleted">
      <EmptyState icon={<CommunitiesIcon size={28} />} title={t("deletedTitle")} text={until ? t("deletedText", { date: until }) : t("deletedTextNoDate")}>
        <Button onClick={() => void restore()} disabled={busy || pending} data-testid="community-restore">
          {busy ? t("restoring") : t("restore")}
        </Button>
      </EmptyState>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
    </Card>
  );
}
