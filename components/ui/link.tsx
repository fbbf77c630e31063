"use client";

import { useRouter } from "next/navigation";
import { useEffect, useTransition, type AnchorHTMLAttributes, type FocusEvent, type MouseEvent, type Ref, type TouchEvent } from "react";

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  href: string;
  /** `false`: not even on intent. */
  prefetch?: boolean;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * A link routed by the app router that prefetches on intent, not on sight (docs/adr/0124). Next's default
 * prefetches the route of every link that scrolls into view: a feed page fired some thirty RSC requests
 * while it started, each parsed on the main thread, on a phone's CPU and network. Here a route is
 * prefetched when a pointer rests on its link, a finger touches it or it takes the focus — a moment before
 * the click — so a navigation to a prefetched page is instant. `prefetch={false}` turns even that off.
 *
 * It is a plain `<a>` with the router's `push`, not `next/link` (docs/adr/0151): `next/link` and what it
 * brings (its URL formatting, its ref merging, its visibility observer, `useLinkStatus`) were about 2.7 KB
 * gzip of every page's first load for behaviour these links do not use. A plain left click navigates in the
 * app in a transition; a click with a modifier key or another button, a link with a `target` or
 * `download`, and a link out of the app are left to the browser (a new tab, a download, a full load).
 *
 * The pages render whole on the server (no route-level loading fallback: the first paint is the content,
 * not a spinner that the content replaces; ADR 0124), so a navigation that waits for the server says so:
 * while a link's navigation is pending, <html> carries `data-navigating` and a thin bar runs along the
 * top of the window (app/globals.css), and the content is `aria-busy`.
 */
export default function Link({ prefetch, onClick, onMouseEnter, onTouchStart, onFocus, href, children, ...props }: Props) {
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  usePendingNavigation(navigating);
  const inApp = href.startsWith("/") && !href.startsWith("//");
  const onIntent = prefetch !== false && inApp ? () => router.prefetch(href) : null;
  return (
    <a
      {...props}
      href={href}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (!inApp || !plainClick(event)) return;
        event.preventDefault();
        startNavigation(() => router.push(href));
      }}
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
    </a>
  );
}

/** A click the app routes itself: the main button, no modifier key, not prevented, no target or download. */
export function plainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const a = event.currentTarget;
  const target = a.getAttribute("target");
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey &&
    (!target || target === "_self") &&
    !a.hasAttribute("download")
  );
}

let pending = 0;

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
