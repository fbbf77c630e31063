"use client";

import { ThemeProvider } from "next-themes";
import type { ReactNode } from "react";
import { LocaleSync } from "./locale-sync";
import { TimeZoneProvider } from "./time-zone";
import { Toaster } from "./toaster";

/**
 * Theme (spec section 1): light, dark or system, default system, saved under "theme"; the resolved
 * theme is written to <html data-theme> before the first paint, and "system" follows the OS live.
 */
export function Providers({ children, nonce, timeZone }: { children: ReactNode; nonce?: string; timeZone: string | null }) {
  return (
    <ThemeProvider
      attribute="data-theme"
      themes={["light", "dark"]}
      defaultTheme="system"
      enableSystem
      storageKey="theme"
      disableTransitionOnChange
      nonce={nonce}
    >
      <LocaleSync />
      <TimeZoneProvider zone={timeZone}>{children}</TimeZoneProvider>
      <Toaster />
    </ThemeProvider>
  );
}
