"use client";
/**
 * Which dialog this tab has open (spec section 4: a message in a non-active dialog adds one to its
 * unread count). The chat screen registers itself; the unread badge and the dialog list ask.
 */
let active: number | null = null;

/** Marks `dialogId` as open in this tab; returns the function that unmarks it. */
export function setActiveDialog(dialogId: number): () => void {
  active = dialogId;
  return () => {
    if (active === dialogId) active = null;
  };
}

export function activeDialogId(): number | null {
  return active;
}

/** Open and in front of the person: a message arriving there is read at once rather than counted. */
export function isDialogInView(dialogId: number): boolean {
  return active === dialogId && typeof document !== "undefined" && document.visibilityState === "visible";
}
