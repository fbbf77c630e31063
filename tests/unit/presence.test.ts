import { describe, expect, it } from "vitest";
import { isOnline, ONLINE_WINDOW_SECONDS } from "@/lib/server/services/accounts/presence";

describe("isOnline", () => {
  const now = new Date("2026-05-01T12:00:00Z");
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  it("counts an account seen within the window as online", () => {
    expect(isOnline(ago(0), now)).toBe(true);
    expect(isOnline(ago(ONLINE_WINDOW_SECONDS), now)).toBe(true);
    expect(isOnline(ago(ONLINE_WINDOW_SECONDS + 1), now)).toBe(false);
  });

  it("accepts ISO strings and treats never-seen or unreadable times as offline", () => {
    expect(isOnline(ago(30).toISOString(), now)).toBe(true);
    expect(isOnline(null, now)).toBe(false);
    expect(isOnline(undefined, now)).toBe(false);
    expect(isOnline("not a date", now)).toBe(false);
  });
});
