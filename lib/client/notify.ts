import { createToastQueue, toastKind } from "./toast-queue";

/** Spec section 9: a toast closes by itself after 3 s, bottom-right (see components/layout/toaster.tsx). */
export const TOAST_DURATION_MS = 3000;

// Sonner and its toaster load when the first toast is asked for (docs/adr/0092, 0124); a toast waits for
// both, so none is lost.
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Called by the toaster once it listens. */
export function toasterMounted(): void {
  markMounted();
}

// The toaster is mounted only once a toast is first asked for (docs/adr/0124): a page that shows none never
// loads Sonner at all. Its component (components/layout/toaster.tsx) listens here.
let wanted = false;
const wantedListeners = new Set<() => void>();

/** Whether a toast has been asked for in this tab (then the toaster is mounted). */
export function toasterWanted(): boolean {
  return wanted;
}

/** Called when the toaster should mount; returns the unsubscribe. */
export function onToasterWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

// One queue per browser tab: the Toaster lives in the root layout and never unmounts.
const queue = createToastQueue((item, done) => {
  if (!wanted) {
    wanted = true;
    for (const listener of wantedListeners) listener();
  }
  const options = { duration: TOAST_DURATION_MS, onAutoClose: done, onDismiss: done };
  void Promise.all([import("sonner"), mounted]).then(([{ toast }]) => {
    if (item.kind === "success") toast.success(item.message, options);
    else toast.error(item.message, options);
  });
});

/** Shows a toast after the ones already queued. `message` is already translated. */
export function notify({ status, message }: { status: string; message: string }): void {
  queue.push({ kind: toastKind(status), message });
}
