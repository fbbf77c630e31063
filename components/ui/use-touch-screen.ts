import { useSyncExternalStore } from "react";

/** A screen worked by a finger, with no mouse to hover: where keyboard hints mean nothing (issue 44 item 5). */
const QUERY = "(hover: none) and (pointer: coarse)";

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(QUERY);
  list.addEventListener("change", onChange);
  return () => list.removeEventListener("change", onChange);
}

/**
 * True on a touch screen (a phone, a tablet), false with a mouse or a touchpad, and false during the server
 * render and hydration: the keyboard's hints are rendered first and dropped on a phone after hydration.
 */
export function useTouchScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}
