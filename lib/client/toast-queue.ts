/**
 * Toasts of spec sections 4, 8 and 9: one visible at a time, the next shown when the previous closes.
 * Pure (no React, no sonner) so the order and the status mapping are unit-tested.
 */

export type ToastKind = "success" | "error";
export type QueuedToast = { kind: ToastKind; message: string };

// Spec section 8: these statuses read as success; any other status is an error.
const SUCCESS_STATUSES = new Set(["success", "response", "action", "validation"]);

export function toastKind(status: string): ToastKind {
  return SUCCESS_STATUSES.has(status) ? "success" : "error";
}

/**
 * A FIFO of toasts. `show` displays one and must call `done` once it has closed (auto-close or
 * dismissal); only then is the next one shown. Calling `done` twice is harmless.
 */
export function createToastQueue(show: (toast: QueuedToast, done: () => void) => void) {
  const waiting: QueuedToast[] = [];
  let showing = false;

  function next() {
    const toast = waiting.shift();
    if (!toast) {
      showing = false;
      return;
    }
    showing = true;
    let closed = false;
    show(toast, () => {
      if (closed) return;
      closed = true;
      next();
    });
  }

  return {
    push(toast: QueuedToast) {
      waiting.push(toast);
      if (!showing) next();
    },
    /** Toasts not yet closed, the visible one included. */
    pending(): number {
      return waiting.length + (showing ? 1 : 0);
    },
  };
}
