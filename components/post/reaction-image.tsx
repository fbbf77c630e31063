"use client";

import { useEffect, useRef, useState } from "react";
import { reactionEmoji, reactionImage, type ReactionType } from "@/lib/validation/reactions";
import styles from "./post-reactions.module.css";

/**
 * A reaction's image from /post-reactions/, or the emoji itself as text when the image cannot be loaded
 * (a deployment without the generated images must still show which reaction is which).
 */
export function ReactionImage({ type, size, lazy }: { type: ReactionType; size: number; lazy?: boolean }) {
  const img = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) {
    return (
      <span className={styles.emoji} style={{ fontSize: Math.round(size * 0.85), width: size, height: size }} aria-hidden="true">
        {reactionEmoji(type)}
      </span>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element
  return <img ref={img} src={reactionImage(type)} alt="" width={size} height={size} loading={lazy ? "lazy" : undefined} onError={() => setFailed(true)} />;
}
