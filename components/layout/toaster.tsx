"use client";

import dynamic from "next/dynamic";

// Sonner (about 10 KB gzip) is not needed to show a page: it loads after hydration, and a toast asked for
// before it has mounted waits for it (lib/client/notify.ts; docs/adr/0092).
export const Toaster = dynamic(() => import("./sonner-toaster"), { ssr: false });
