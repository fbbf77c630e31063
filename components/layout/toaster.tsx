"use client";

import { useTranslations } from "next-intl";
import { useTheme } from "next-themes";
import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS } from "@/lib/client/notify";

// Sonner reads these variables; ours keep toasts in the product's palette in both themes.
const palette = {
  "--normal-bg": "var(--surface)",
  "--normal-text": "var(--text)",
  "--normal-border": "var(--border-strong)",
  "--success-text": "var(--success)",
  "--error-text": "var(--danger)",
} as CSSProperties;

export function Toaster() {
  const { resolvedTheme } = useTheme();
  const t = useTranslations("common");
  return (
    <Sonner
      position="bottom-right"
      visibleToasts={1}
      duration={TOAST_DURATION_MS}
      theme={resolvedTheme === "dark" ? "dark" : "light"}
      closeButton
      style={palette}
      containerAriaLabel={t("toasts")}
      toastOptions={{ closeButtonAriaLabel: t("close") }}
    />
  );
}
