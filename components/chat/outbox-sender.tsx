"use client";

import { useEffect } from "react";

/**
 * Sends the chat messages kept on this device for the signed-in person (docs/adr/0179) when a page of
 * Krug opens and whenever the line comes back: the retry on the next open, for browsers without
 * Background Sync. Renders nothing.
 */
export function OutboxSender({ viewerId }: { viewerId: number }) {
  useEffect(() => {
    const run = () => {
      // The outbox's code loads after the page: most opens find nothing kept.
      if (navigator.onLine && typeof indexedDB !== "undefined") {
        import("@/lib/client/outbox").then((m) => m.sendQueued(viewerId)).catch((err: unknown) => console.error("sending the kept messages failed", err));
      }
    };
    run();
    window.addEventListener("online", run);
    return () => window.removeEventListener("online", run);
  }, [viewerId]);
  return null;
}
