"use client";

import { useEffect, useRef, useState } from "react";
import type { ReactionType } from "@/lib/validation/reactions";
import styles from "./post-reactions.module.css";

/**
 * A reaction's image from /post-reactions/, or the emoji itself as text when the image cannot be loaded
 * (a deployment without the generated images must still show which reaction is which). The table of the
 * 69 reactions (their code points) is loaded only then: it is in no page's first load (docs/adr/0151).
 */
export function ReactionImage({ type, size, lazy }: { type: ReactionType; size: number; lazy?: boolean }) {
  const img = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  const [emoji, setEmoji] = useState("");
  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, []);
  useEffect(() => {
    if (!failed) return;
    let live = true;
    void import("@/lib/validation/reactions").then((m) => live && setEmoji(m.reactionEmoji(type)));
    return () => {
      live = false;
    };
  }, [failed, type]);
  if (failed) {
    return (
      <span className={styles.emoji} style={{ fontSize: Math.round(size * 0.85), width: size, height: size }} aria-hidden="true">
        {emoji}
      </span>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element
  return <img ref={img} src={`/post-reactions/${type}.svg`} alt="" width={size} height={size} loading={lazy ? "lazy" : undefined} onError={() => setFailed(true)} />;
}
