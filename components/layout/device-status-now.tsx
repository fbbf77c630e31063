"use client";

import { useTranslations } from "next-intl";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { DeviceOutcome } from "@/lib/pwa/worker/device";
import styles from "./device-status.module.css";

/**
 * The page's side of the pages kept on the device (docs/adr/0178), an island of the signed-in shell. It
 * asks the worker how this page's navigation went: answered from the device and refreshed, it takes the
 * fresh content (router.refresh; the live lists resync when the socket opens); answered from the device
 * for another account or none, the device was wiped and the page loads again; answered from the device
 * without network, or the network gone since, it says so above the content until the network is back.
 */
export function DeviceStatusNow() {
  const t = useTranslations("device");
  const router = useRouter();
  const pathname = usePathname();
  const [offline, setOffline] = useState(false);

  useEffect(() => {
    let kept = false;
    const goneOffline = () => setOffline(true);
    const backOnline = () => {
      setOffline(false);
      if (kept) router.refresh();
    };
    window.addEventListener("offline", goneOffline);
    window.addEventListener("online", backOnline);
    // Already offline when it hydrates (a kept page opened in a tunnel): said as soon as it is seen.
    if (!navigator.onLine) queueMicrotask(goneOffline);
    const worker = "serviceWorker" in navigator ? navigator.serviceWorker.controller : null;
    const channel = worker ? new MessageChannel() : null;
    if (worker && channel) {
      channel.port1.onmessage = (event: MessageEvent<{ outcome?: DeviceOutcome }>) => {
        const outcome = event.data?.outcome;
        if (outcome === "wiped") window.location.reload();
        else if (outcome === "fresh") router.refresh();
        else if (outcome === "offline") {
          kept = true;
          setOffline(true);
        }
      };
      worker.postMessage({ type: "krug-device-status" }, [channel.port2]);
    }
    return () => {
      window.removeEventListener("offline", goneOffline);
      window.removeEventListener("online", backOnline);
      channel?.port1.close();
    };
  }, [router]);

  // An open dialog says it itself, above its messages (the chat's banner, docs/adr/0177): one notice, not two.
  if (!offline || /^\/im\/[^/]+$/.test(pathname)) return null;
  return (
    <div role="status" className={styles.offline} data-testid="device-offline">
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0M12 19h.01M3 3l18 18" />
      </svg>
      <p className={styles.text}>
        <strong>{t("offlineTitle")}</strong> {t("offlineBody")}
      </p>
    </div>
  );
}
