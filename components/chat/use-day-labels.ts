import { useEffect, type RefObject } from "react";

/** How long after the last scroll a day's label that stands over the messages stays in sight. */
const SHOWN_AFTER_SCROLL_MS = 1200;

/**
 * The sticky day labels of a history (issue 44 item 6): a day whose start is scrolled past keeps its label at
 * the top while the reader scrolls, to say where they are, and lets it go a moment after: standing still, it
 * covered the text of the top message. Read without layout in a scroll handler (docs/adr/0154): the browser
 * tells through an IntersectionObserver which days began above the view (`data-past` on the day), and the
 * scroll handler only marks the history as scrolling (`data-scrolling`); the CSS does the rest.
 *
 * `version` changes when the days do (a day came or went): its markers are observed anew.
 */
export function useDayLabels(scroller: RefObject<HTMLElement | null>, version: unknown): void {
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let timer: number | undefined;
    const onScroll = () => {
      el.dataset.scrolling = "";
      window.clearTimeout(timer);
      timer = window.setTimeout(() => delete el.dataset.scrolling, SHOWN_AFTER_SCROLL_MS);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    const io = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const day = (entry.target as HTMLElement).parentElement;
          if (!day) continue;
          const past = !entry.isIntersecting && !!entry.rootBounds && entry.boundingClientRect.top < entry.rootBounds.top;
          if (past) day.dataset.past = "";
          else delete day.dataset.past;
        }
      },
      { root: el },
    );
    for (const marker of el.querySelectorAll("[data-day-start]")) io.observe(marker);
    return () => {
      el.removeEventListener("scroll", onScroll);
      window.clearTimeout(timer);
      io.disconnect();
    };
  }, [scroller, version]);
}
