"use client";

import { useTranslations } from "next-intl";
import { Lightbox, type LightboxImage } from "@/components/ui/lightbox";
import styles from "./chat.module.css";

/**
 * The photos of a message as a grid (one wide, two side by side, three and more in rows of three);
 * each opens full-size in the image viewer (ADR 0131) as one gallery of the message's photos:
 * ← and → move through them, Escape closes and focus returns to the thumbnail (docs/adr/0134).
 */
export function MessageImages({ images }: { images: string[] }) {
  const t = useTranslations("im");
  if (images.length === 0) return null;
  const count = images.length;
  const gallery: LightboxImage[] = images.map((src, i) => ({ src, alt: t("photoAlt", { index: i + 1, count }) }));
  return (
    <div className={styles.images} data-count={Math.min(count, 3)} data-testid="message-images">
      {gallery.map((image, i) => (
        <Lightbox key={image.src} images={gallery} start={i} className={styles.imageCell} label={t("openPhoto", { index: i + 1, count })}>
          {/* Our own stored image (see components/ui/avatar.tsx on next/image). */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={image.src} alt={image.alt} loading="lazy" decoding="async" className={styles.imageThumb} />
        </Lightbox>
      ))}
    </div>
  );
}
