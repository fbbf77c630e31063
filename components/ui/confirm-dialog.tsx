"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import type { ConfirmDialogProps } from "./confirm-dialog-radix";

// Radix's alert dialog is fetched the first time a confirmation opens, not with every page that could ask
// one (docs/adr/0092): a click that opens it waits for one small chunk.
const RadixConfirmDialog = dynamic(() => import("./confirm-dialog-radix").then((m) => m.RadixConfirmDialog), { ssr: false });

/** See RadixConfirmDialog: rendered from its first opening on, so it can animate out and reopen at once. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  return used ? <RadixConfirmDialog {...props} /> : null;
}
