import { describe, expect, it } from "vitest";
import { cardPageInput } from "@/lib/validation/post-source";

// readCardPage's arguments come from the browser (a server action): anything but a feed, a wall of one
// account or a news search with string filters, and a page 0–199, is refused before a service is asked.
describe("cardPageInput", () => {
  it("takes the feed, a wall, a community's wall and a news search", () => {
    expect(cardPageInput.parse({ source: { kind: "feed" }, page: 0 })).toEqual({ source: { kind: "feed" }, page: 0 });
    expect(cardPageInput.parse({ source: { kind: "wall", accountId: 17 }, page: 3 }).source).toEqual({ kind: "wall", accountId: 17 });
    // A community's wall (issue 42).
    expect(cardPageInput.parse({ source: { kind: "community", communityId: 5 }, page: 1 }).source).toEqual({ kind: "community", communityId: 5 });
    const search = { kind: "search", text: "кошки", tags: "tag1", author: undefined, dateFrom: "2026-01-01T00:00:00.000Z" };
    expect(cardPageInput.parse({ source: search, page: 199 }).source).toMatchObject({ kind: "search", text: "кошки", tags: "tag1" });
  });

  it.each([
    ["an unknown kind", { source: { kind: "admin" }, page: 0 }],
    ["an extra key", { source: { kind: "feed", accountIds: "1,2" }, page: 0 }],
    ["a wall without its account", { source: { kind: "wall" }, page: 0 }],
    ["a wall of a string", { source: { kind: "wall", accountId: "17" }, page: 0 }],
    ["a wall of a huge id", { source: { kind: "wall", accountId: 2 ** 40 }, page: 0 }],
    ["a community wall without its id", { source: { kind: "community" }, page: 0 }],
    ["a community wall of a string", { source: { kind: "community", communityId: "5" }, page: 0 }],
    ["a community wall of an account", { source: { kind: "community", communityId: 5, accountId: 17 }, page: 0 }],
    ["a filter that is not a string", { source: { kind: "search", text: { $ne: 1 } }, page: 0 }],
    ["a very long filter", { source: { kind: "search", text: "x".repeat(5000) }, page: 0 }],
    ["a negative page", { source: { kind: "feed" }, page: -1 }],
    ["a page past the 200th", { source: { kind: "feed" }, page: 200 }],
    ["a fractional page", { source: { kind: "feed" }, page: 1.5 }],
    ["no source", { page: 0 }],
    ["null", null],
  ])("refuses %s", (_name, input) => {
    expect(cardPageInput.safeParse(input).success).toBe(false);
  });
});
