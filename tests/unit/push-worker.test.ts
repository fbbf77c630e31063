// The service worker's push handlers (docs/adr/0123): the payload check, where a click may lead, and what a
// visible Krug tab changes. The handlers themselves run in Chromium in tests/e2e/push-device.spec.ts.
import { describe, expect, it } from "vitest";
import { parsePushPayload, pushDisplay, safeTarget } from "@/lib/pwa/worker/events";

const ORIGIN = "https://krug.example";
const message = { title: "Boris Godunov", body: "Message: “Hi”", icon: null, url: "/im/42", tag: "dialog-42", type: "MESSAGE" };

describe("parsePushPayload", () => {
  it("takes the server's payload and refuses anything else", () => {
    expect(parsePushPayload(message)).toEqual(message);
    expect(parsePushPayload({ ...message, icon: "https://krug.example/p.webp" })?.icon).toBe("https://krug.example/p.webp");
    expect(parsePushPayload({ ...message, icon: 5 })?.icon).toBeNull();
    for (const bad of [null, "text", 42, [], {}, { ...message, title: 1 }, { ...message, url: null }, { ...message, tag: undefined }, { ...message, type: {} }]) {
      expect(parsePushPayload(bad)).toBeNull();
    }
    expect(parsePushPayload({ ...message, title: "x".repeat(5000) })?.title).toHaveLength(200);
  });
});

describe("safeTarget", () => {
  it("keeps paths of the origin and sends everything else to the notifications page", () => {
    expect(safeTarget("/im/42", ORIGIN)).toBe("/im/42");
    expect(safeTarget("/post/7?comment=3#c3", ORIGIN)).toBe("/post/7?comment=3#c3");
    for (const bad of ["https://evil.example/im/1", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "im/1", "", null, 5, { url: "/im/1" }]) {
      expect(safeTarget(bad, ORIGIN)).toBe("/push");
    }
  });
});

describe("pushDisplay", () => {
  const tab = (path: string, visibilityState: DocumentVisibilityState) => ({ url: ORIGIN + path, visibilityState });
  it("shows a push when no Krug tab is visible", () => {
    expect(pushDisplay(message, [], ORIGIN)).toBe("show");
    expect(pushDisplay(message, [tab("/im/42", "hidden"), tab("/feed", "hidden")], ORIGIN)).toBe("show");
  });
  it("shows nothing for a message of the dialog a visible tab shows, and anything else silently", () => {
    expect(pushDisplay(message, [tab("/im/42", "visible")], ORIGIN)).toBe("skip");
    expect(pushDisplay(message, [tab("/im/42", "hidden"), tab("/im/42?x=1", "visible")], ORIGIN)).toBe("skip");
    expect(pushDisplay(message, [tab("/im/7", "visible")], ORIGIN)).toBe("silent");
    expect(pushDisplay({ ...message, type: "LIKE", url: "/post/42" }, [tab("/post/42", "visible")], ORIGIN)).toBe("silent");
    expect(pushDisplay(message, [{ url: "https://evil.example/im/42", visibilityState: "visible" }], ORIGIN)).toBe("silent");
  });
});
