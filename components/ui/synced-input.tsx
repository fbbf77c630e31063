"use client";

import { useState, type InputHTMLAttributes } from "react";

/**
 * A form field whose text follows `value` whenever the page renders it anew (a search from the top
 * bar, Back and Forward), and is the person's own while they type. A plain `defaultValue` is read only
 * when the input mounts, so a client navigation to the same page kept the old text (issue 24 item 19).
 */
export function SyncedInput({ value, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "defaultValue" | "onChange"> & { value: string }) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  return <input {...props} value={text} onChange={(event) => setText(event.target.value)} />;
}
