"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon } from "@/components/ui/icons";
import { readableMessage } from "@/lib/client/error-message";

/** A page of the main layout failed: 'Ошибка:' and the message (spec section 8), and a way to retry. */
export default function MainError({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useTranslations("common");
  useEffect(() => {
    console.error(error);
  }, [error]);
  const message = readableMessage(error) ?? t("unknownError");
  return (
    <Card>
      <EmptyState icon={<AlertIcon size={28} />} title={t("errorTitle")} text={`${t("errorPrefix")} ${message}`} headingLevel={1}>
        <Button onClick={() => retry()}>{t("retry")}</Button>
      </EmptyState>
    </Card>
  );
}
