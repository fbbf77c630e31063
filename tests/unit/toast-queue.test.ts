import { describe, expect, it } from "vitest";
import { createToastQueue, toastKind, type QueuedToast } from "@/lib/client/toast-queue";

describe("toast status mapping (spec section 8)", () => {
  it("shows success, response, action and validation as success", () => {
    for (const status of ["success", "response", "action", "validation"]) expect(toastKind(status)).toBe("success");
  });

  it("shows any other status as an error", () => {
    for (const status of ["error", "warning", "info", "", "SUCCESS"]) expect(toastKind(status)).toBe("error");
  });
});

describe("toast queue", () => {
  function harness() {
    const shown: QueuedToast[] = [];
    const close: Array<() => void> = [];
    const queue = createToastQueue((toast, done) => {
      shown.push(toast);
      close.push(done);
    });
    return { queue, shown, close };
  }

  it("shows one toast at a time, the next only after the previous closed", () => {
    const { queue, shown, close } = harness();
    queue.push({ kind: "success", message: "a" });
    queue.push({ kind: "error", message: "b" });
    queue.push({ kind: "success", message: "c" });
    expect(shown.map((t) => t.message)).toEqual(["a"]);
    expect(queue.pending()).toBe(3);
    close[0]();
    expect(shown.map((t) => t.message)).toEqual(["a", "b"]);
    close[1]();
    close[2]();
    expect(shown.map((t) => t.message)).toEqual(["a", "b", "c"]);
    expect(queue.pending()).toBe(0);
  });

  it("ignores a second close of the same toast (auto-close and dismissal both fire)", () => {
    const { queue, shown, close } = harness();
    queue.push({ kind: "success", message: "a" });
    queue.push({ kind: "success", message: "b" });
    queue.push({ kind: "success", message: "c" });
    close[0]();
    close[0]();
    expect(shown.map((t) => t.message)).toEqual(["a", "b"]);
  });

  it("shows a toast at once when the queue is idle again", () => {
    const { queue, shown, close } = harness();
    queue.push({ kind: "success", message: "a" });
    close[0]();
    queue.push({ kind: "success", message: "b" });
    expect(shown.map((t) => t.message)).toEqual(["a", "b"]);
  });
});
