"use client";

import { useTranslations } from "next-intl";
import { TextField } from "@/components/ui/text-field";
import { BLOCK_REASON_MAX } from "@/lib/validation/admin-shared";

/**
 * The required reason of a moderation confirmation (ADR 0118, 0126): at most BLOCK_REASON_MAX characters, "give a
 * reason" once a confirm was tried without one, Enter confirms.
 */
export function ReasonField({ value, missing, onChange, onEnter }: { value: string; missing: boolean; onChange: (value: string) => void; onEnter: () => void }) {
  const t = useTranslations("admin");
  return (
    <TextField
      label={t("reason")}
      value={value}
      maxLength={BLOCK_REASON_MAX}
      required
      autoComplete="off"
      error={missing && !value.trim() ? t("reasonRequired") : undefined}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          onEnter();
        }
      }}
    />
  );
}
