"use client";

import { useLayoutEffect, useRef, useState } from "react";

/**
 * A modal <dialog> that is put into the document only once someone means to open it: its trigger is
 * pointed at, touched or focused (a moment before the press), or pressed. Until then a page with twenty
 * post cards renders no twenty portals and no second pass over every card after hydration (docs/adr/0143).
 * `show()` opens it at once when it is there, else right after it has been put in (a press with no
 * pointer, touch or focus before it, as an assistive technology's click), focusing `[data-autofocus]`.
 */
export function useDialogOnDemand() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [mounted, setMounted] = useState(false);
  const pending = useRef(false);

  useLayoutEffect(() => {
    const el = dialog.current;
    if (!mounted || !pending.current || !el) return;
    pending.current = false;
    if (!el.open) el.showModal();
    el.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, [mounted]);

  const prepare = () => {
    if (!mounted) setMounted(true);
  };
  const show = () => {
    if (dialog.current) {
      dialog.current.showModal();
      return;
    }
    pending.current = true;
    setMounted(true);
  };
  return { dialog, mounted, show, intent: { onPointerEnter: prepare, onTouchStart: prepare, onFocus: prepare } };
}
