"use client";

import { useTranslations } from "next-intl";
import { useRef, useState, type PointerEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { CloseIcon } from "./icons";
import { useDialogOnDemand } from "./use-dialog-on-demand";
import styles from "./lightbox.module.css";

export type LightboxImage = { src: string; alt: string };

/** How far (px) a finger must travel to count as a swipe. */
const SWIPE_PX = 50;

/**
 * An image (or several) that opens full-size in a modal <dialog> (issue 27, ADR 0131): the browser
 * traps focus, Escape closes and focus returns to the thumbnail; ← and → (and a sideways swipe on a
 * touch screen) move through `images`, a swipe down closes. `children` is the thumbnail, inside a
 * button named by `label` (or the image's alt).
 */
export function Lightbox({ images, start = 0, className, label, children }: { images: LightboxImage[]; start?: number; className?: string; label?: string; children: ReactNode }) {
  const t = useTranslations("lightbox");
  // The <dialog> goes into the document when the thumbnail is first pointed at, touched or focused.
  const { dialog, mounted, show, intent } = useDialogOnDemand();
  const [index, setIndex] = useState(start);
  const [open, setOpen] = useState(false);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const many = images.length > 1;
  const current = images[Math.min(index, images.length - 1)];
  const move = (by: number) => setIndex((i) => (i + by + images.length) % images.length);

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType !== "mouse") touch.current = { x: e.clientX, y: e.clientY };
  };
  const onPointerUp = (e: PointerEvent) => {
    const from = touch.current;
    touch.current = null;
    if (!from) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) {
      if (many) move(dx < 0 ? 1 : -1);
    } else if (dy > SWIPE_PX * 2) dialog.current?.close();
  };

  const content = (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-label={t("label")}
      data-testid="lightbox"
      onClose={() => setOpen(false)}
      onKeyDown={(e) => {
        if (!many) return;
        if (e.key === "ArrowRight") move(1);
        else if (e.key === "ArrowLeft") move(-1);
        else return;
        e.preventDefault();
      }}
      onClick={(e) => {
        // A click on the dark stage around the picture closes it, as a click on the backdrop would.
        if (e.target === dialog.current || (e.target as HTMLElement).dataset.stage !== undefined) dialog.current?.close();
      }}
    >
      {open && current ? (
        <>
          <div className={styles.stage} data-stage="" onPointerDown={onPointerDown} onPointerUp={onPointerUp} onPointerCancel={() => (touch.current = null)}>
            {/* Our own stored image, any size (see components/ui/avatar.tsx on next/image). */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={current.src} alt={current.alt} className={styles.image} draggable={false} />
          </div>
          <div className={styles.bar}>
            {many ? (
              <p className={styles.position} aria-live="polite">
                {t("position", { index: index + 1, count: images.length })}
              </p>
            ) : null}
            <button type="button" className={styles.button} onClick={() => dialog.current?.close()} aria-label={t("close")} autoFocus data-autofocus="">
              <CloseIcon size={22} />
            </button>
          </div>
          {many ? (
            <>
              <button type="button" className={`${styles.button} ${styles.prev}`} onClick={() => move(-1)} aria-label={t("prev")}>
                ‹
              </button>
              <button type="button" className={`${styles.button} ${styles.next}`} onClick={() => move(1)} aria-label={t("next")}>
                ›
              </button>
            </>
          ) : null}
        </>
      ) : null}
    </dialog>
  );

  return (
    <>
      <button
        type="button"
        className={`${styles.trigger} ${className ?? ""}`}
        aria-haspopup="dialog"
        aria-label={label ?? t("open", { alt: images[start]?.alt ?? "" })}
        {...intent}
        onClick={() => {
          setIndex(start);
          setOpen(true);
          show();
        }}
      >
        {children}
      </button>
      {mounted ? createPortal(content, document.body) : null}
    </>
  );
}
