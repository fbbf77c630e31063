"use client";

import { useEffect } from "react";

/**
 * Registers the service worker (/sw.js, docs/adr/0119) once the page has loaded: an island of a few
 * lines with no markup. The browser checks /sw.js for a new build at every navigation (the script is
 * never taken from the HTTP cache); a development server has no worker.
 */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
    const register = () => {
      navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    return () => window.removeEventListener("load", register);
  }, []);
  return null;
}
