"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon } from "@/components/ui/icons";

/** A page of the main layout failed: 'Ошибка:' and the message (spec section 8), and a way to retry. */
export default function MainError({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useTranslations("common");
  useEffect(() => {
    console.error(error);
  }, [error]);
  const message = error instanceof Error && error.message ? error.message : t("unknownError");
  return (
    <Card>
      <EmptyState icon={<AlertIcon size={28} />} title={t("errorTitle")} text={`${t("errorPrefix")} ${message}`} headingLevel={1}>
        <Button onClick={() => retry()}>{t("retry")}</Button>
      </EmptyState>
    </Card>
  );
}
