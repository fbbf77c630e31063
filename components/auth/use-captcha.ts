"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";

export type CaptchaState =
  | { status: "loading" }
  | { status: "ready"; secret: string; image: string }
  | { status: "failed"; message: string };

/**
 * The registration captcha (GET auth/captcha → {secret, image}). A captcha is single-use: after any
 * refused attempt the caller reloads it. Only the newest request may set the state, so a quick
 * double refresh never shows a picture whose secret is not the one sent.
 */
export function useCaptcha(enabled: boolean) {
  const [state, setState] = useState<CaptchaState>({ status: "loading" });
  const latest = useRef(0);

  const fetchCaptcha = useCallback(async () => {
    const ticket = ++latest.current;
    try {
      const captcha = await api<{ secret: string; image: string }>("auth/captcha");
      if (ticket === latest.current) setState({ status: "ready", ...captcha });
    } catch (err) {
      if (ticket === latest.current) setState({ status: "failed", message: err instanceof Error ? err.message : "" });
    }
  }, []);

  const reload = useCallback(() => {
    setState({ status: "loading" });
    void fetchCaptcha();
  }, [fetchCaptcha]);

  // The first picture is fetched when the captcha step opens (a captcha lives 10 minutes).
  const started = useRef(false);
  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    void fetchCaptcha();
  }, [enabled, fetchCaptcha]);

  return { state, reload };
}
