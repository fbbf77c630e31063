"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import styles from "./post-form.module.css";

export const HINT_STEPS = ["title", "text", "extras", "publish"] as const;
export type HintStep = (typeof HINT_STEPS)[number];

const keyOf = (viewerId: number) => `krug.postHints.${viewerId}`;

function seen(viewerId: number): boolean {
  try {
    return localStorage.getItem(keyOf(viewerId)) === "done";
  } catch {
    return true; // no storage: never nag on every visit
  }
}

/**
 * The composer's four-step hint sequence (spec section 2), shown once per person: the first time they
 * open the composer in this browser. Any step can end it; the last one closes it for good.
 */
export function useHintTour(viewerId: number) {
  const [step, setStep] = useState<number | null>(() => (typeof window === "undefined" || seen(viewerId) ? null : 0));

  function finish() {
    setStep(null);
    try {
      localStorage.setItem(keyOf(viewerId), "done");
    } catch {
      // Storage unavailable: the sequence simply shows again next time.
    }
  }

  return {
    current: step === null ? null : HINT_STEPS[step],
    next: () => (step !== null && step < HINT_STEPS.length - 1 ? setStep(step + 1) : finish()),
    finish,
    index: step,
  };
}

export type HintTour = ReturnType<typeof useHintTour>;

/** One hint bubble, placed in the flow right under the part of the form it explains. */
export function Hint({ tour, step }: { tour: HintTour; step: HintStep }) {
  const t = useTranslations("post.hints");
  if (tour.current !== step || tour.index === null) return null;
  const last = tour.index === HINT_STEPS.length - 1;
  return (
    <div className={styles.hint} role="note" aria-label={t("label")} data-testid="post-hint">
      <p className={styles.hintCount}>{t("count", { step: tour.index + 1, total: HINT_STEPS.length })}</p>
      <p className={styles.hintText}>{t(step)}</p>
      <div className={styles.hintActions}>
        {!last ? (
          <Button variant="ghost" onClick={tour.finish}>
            {t("skip")}
          </Button>
        ) : null}
        <Button variant="secondary" onClick={tour.next}>
          {last ? t("done") : t("next")}
        </Button>
      </div>
    </div>
  );
}
