"use client";

import { useCallback, useEffect, useState } from "react";
import type { Draft, DraftKind } from "@/lib/pwa/device/drafts";

/**
 * The account's drafts of one kind kept on this device for one place (docs/adr/0179), read again on
 * `version` and when the line returns. The store's code loads after the page (it is not first-load JS:
 * a feed without drafts needs none of it).
 */
export function useDeviceDrafts(accountId: number, kind: DraftKind, placeId: number, version = 0) {
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const reload = useCallback(() => {
    if (typeof indexedDB === "undefined") return;
    import("@/lib/pwa/device/drafts")
      .then((m) => m.draftsFor(accountId, kind, placeId))
      .then(setDrafts)
      .catch((err: unknown) => console.error("reading the drafts failed", err));
  }, [accountId, kind, placeId]);
  useEffect(() => {
    reload();
    window.addEventListener("online", reload);
    return () => window.removeEventListener("online", reload);
  }, [reload, version]);
  return { drafts, reload };
}
