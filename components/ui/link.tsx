"use client";

import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps, FocusEvent, MouseEvent, TouchEvent } from "react";

type Props = ComponentProps<typeof NextLink>;

/**
 * `next/link` that prefetches on intent, not on sight (docs/adr/0124). Next's default prefetches the route
 * of every link that scrolls into view: a feed page fired some thirty RSC requests while it started, each
 * parsed on the main thread, on a phone's CPU and network. Here a route is prefetched when a pointer
 * rests on its link, a finger touches it or it takes the focus — a moment before the click — so a
 * navigation still shows its loading state at once. `prefetch={false}` turns even that off.
 */
export default function Link({ prefetch, onMouseEnter, onTouchStart, onFocus, href, ...props }: Props) {
  const router = useRouter();
  const url = typeof href === "string" ? href : null;
  const onIntent = prefetch !== false && url !== null && url.startsWith("/") ? () => router.prefetch(url) : null;
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        onIntent?.();
        onMouseEnter?.(event);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        onIntent?.();
        onTouchStart?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        onIntent?.();
        onFocus?.(event);
      }}
    />
  );
}
