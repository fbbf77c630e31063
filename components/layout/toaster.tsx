"use client";

import dynamic from "next/dynamic";
import { useSyncExternalStore } from "react";
import { onToasterWanted, toasterWanted } from "@/lib/client/notify";

// Sonner (about 10 KB gzip) is not needed to show a page: it loads when the first toast is asked for, and
// that toast waits for it (lib/client/notify.ts; docs/adr/0092, 0124). A page that shows no toast never
// evaluates it, so it adds nothing to the main thread's work while the page starts.
const SonnerToaster = dynamic(() => import("./sonner-toaster"), { ssr: false });

export function Toaster() {
  const wanted = useSyncExternalStore(onToasterWanted, toasterWanted, () => false);
  return wanted ? <SonnerToaster /> : null;
}
