import { createToastQueue, toastKind } from "./toast-queue";

/** Spec section 9: a toast closes by itself after 3 s, bottom-right (see components/layout/toaster.tsx). */
export const TOAST_DURATION_MS = 3000;

// Sonner and its toaster load after the page (docs/adr/0092); a toast waits for both, so none is lost
// when an action or a realtime event asks for one in the first moments.
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Called by the toaster once it listens. */
export function toasterMounted(): void {
  markMounted();
}

// One queue per browser tab: the Toaster lives in the root layout and never unmounts.
const queue = createToastQueue((item, done) => {
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
