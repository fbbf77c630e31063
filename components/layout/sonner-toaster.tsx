"use client";

import { useTranslations } from "next-intl";
import { useTheme } from "next-themes";
import { useEffect, type CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS, toasterMounted } from "@/lib/client/notify";

// Sonner reads these variables; ours keep toasts in the product's palette in both themes.
const palette = {
  "--normal-bg": "var(--surface)",
  "--normal-text": "var(--text)",
  "--normal-border": "var(--border-strong)",
  "--success-text": "var(--success)",
  "--error-text": "var(--danger)",
} as CSSProperties;

/** Sonner's toaster in the product's palette; loaded after the page (components/layout/toaster.tsx). */
export default function SonnerToaster() {
  const { resolvedTheme } = useTheme();
  const t = useTranslations("common");
  // Toasts asked for before this mounted wait for it (lib/client/notify.ts).
  useEffect(() => toasterMounted(), []);
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
