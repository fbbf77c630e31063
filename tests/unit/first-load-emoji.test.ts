import { describe, expect, it } from "vitest";
import { staticImportChains } from "../support/client-namespaces-scan";

// docs/adr/0134: the chat composer's emoji picker (emoji-picker-react with its emoji data, well over
// 100 KB) loads when its button is first pressed (next/dynamic), never with the dialog page. One static
// import of it from any module of the page would put it back into the first load.

const DIALOG = ["app/layout.tsx", "app/(main)/layout.tsx", "app/(main)/im/[activeDialogId]/page.tsx"];

/** Every chain of static imports from the entries to the package. */
const staticPickerChains = (entries: string[]) => staticImportChains(entries, (spec) => spec === "emoji-picker-react" || spec.startsWith("emoji-picker-react/"));

describe("the emoji picker stays out of the dialog's first load", () => {
  it("the dialog page reaches it only through a dynamic import", () => {
    expect(staticPickerChains(DIALOG)).toEqual([]);
  });

  it("sees a static import (the check bites)", () => {
    expect(staticPickerChains(["components/chat/emoji-picker.tsx"])).toEqual(["components/chat/emoji-picker.tsx → emoji-picker-react"]);
  });
});
