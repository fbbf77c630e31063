// docs/adr/0184: a connection that lost its database knocks again at most every RECONNECT_BACKOFF_CAP_S
// seconds (postgres.js alone waits up to 20 s), growing from a few milliseconds as postgres.js's own does.
import { describe, expect, it, vi } from "vitest";
import { RECONNECT_BACKOFF_CAP_S, reconnectBackoff } from "@/db/client";

describe("reconnectBackoff", () => {
  it("grows as 3^n/100 s, halved at random, and never waits more than the cap", () => {
    const random = vi.spyOn(Math, "random");
    try {
      random.mockReturnValue(1);
      expect(reconnectBackoff(0)).toBeCloseTo(0.01);
      expect(reconnectBackoff(3)).toBeCloseTo(0.27);
      expect(reconnectBackoff(5)).toBeCloseTo(2.43);
      expect(reconnectBackoff(6)).toBe(RECONNECT_BACKOFF_CAP_S);
      expect(reconnectBackoff(40)).toBe(RECONNECT_BACKOFF_CAP_S);
      random.mockReturnValue(0);
      expect(reconnectBackoff(40)).toBe(RECONNECT_BACKOFF_CAP_S / 2);
    } finally {
      random.mockRestore();
    }
    expect(RECONNECT_BACKOFF_CAP_S).toBeLessThanOrEqual(5);
  });
});
