"use client";

import NextLink, { useLinkStatus } from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, type ComponentProps, type FocusEvent, type MouseEvent, type TouchEvent } from "react";

type Props = ComponentProps<typeof NextLink>;

/**
 * `next/link` that prefetches on intent, not on sight (docs/adr/0124). Next's default prefetches the route
 * of every link that scrolls into view: a feed page fired some thirty RSC requests while it started, each
 * parsed on the main thread, on a phone's CPU and network. Here a route is prefetched when a pointer
 * rests on its link, a finger touches it or it takes the focus — a moment before the click — so a
 * navigation to a prefetched page is instant. `prefetch={false}` turns even that off.
 *
 * The pages render whole on the server (no route-level loading fallback: the first paint is the content,
 * not a spinner that the content replaces; ADR 0124), so a navigation that waits for the server says so:
 * while a link's navigation is pending, <html> carries `data-navigating` and a thin bar runs along the
 * top of the window (app/globals.css), and the content is `aria-busy`.
 */
export default function Link({ prefetch, onMouseEnter, onTouchStart, onFocus, href, children, ...props }: Props) {
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
    >
      {children}
      <PendingNavigation />
    </NextLink>
  );
}

let pending = 0;

/** Marks the document while this link's navigation waits for the server (renders nothing). */
function PendingNavigation() {
  const { pending: waiting } = useLinkStatus();
  usePendingNavigation(waiting);
  return null;
}

/**
 * While `waiting`, <html> carries `data-navigating` (the top bar) and the content is `aria-busy`: for a
 * navigation started by our Link, or by a router.push in a transition (the post card's plain links, ADR 0150).
 */
export function usePendingNavigation(waiting: boolean) {
  useEffect(() => {
    if (!waiting) return;
    pending++;
    const root = document.documentElement;
    root.dataset.navigating = "";
    document.getElementById("content")?.setAttribute("aria-busy", "true");
    return () => {
      if (--pending > 0) return;
      delete root.dataset.navigating;
      document.getElementById("content")?.removeAttribute("aria-busy");
    };
  }, [waiting]);
}
