import { describe, expect, it } from "vitest";
import { newerPath, newerPosts, newPostsCount } from "@/components/post/new-posts-bar";
import { hoursLeft, localMoment } from "@/components/post/schedule-picker";
import { highlightHtml, highlightParts, queryStems } from "@/lib/client/post-text";
import { applyReaction, nextReaction, type ReactionState } from "@/lib/client/reaction-state";
import type { PostDto } from "@/lib/validation/post";

describe("reaction state (spec section 4: one reaction per person)", () => {
  const start: ReactionState = {
    likeAmount: 3,
    myLike: false,
    myReaction: null,
    reactionType: [
      { reactionType: "heart", count: 2 },
      { reactionType: "fire", count: 1 },
    ],
  };

  it("adds, replaces and removes the viewer's reaction, keeping the total right", () => {
    const added = applyReaction(start, "fire");
    expect(added).toEqual({
      likeAmount: 4,
      myLike: true,
      myReaction: "fire",
      reactionType: [
        { reactionType: "fire", count: 2 },
        { reactionType: "heart", count: 2 },
      ],
    });
    const replaced = applyReaction(added, "owl");
    expect(replaced.likeAmount).toBe(4);
    expect(replaced.myReaction).toBe("owl");
    expect(replaced.reactionType).toEqual([
      { reactionType: "heart", count: 2 },
      { reactionType: "fire", count: 1 },
      { reactionType: "owl", count: 1 },
    ]);
    const removed = applyReaction(replaced, null);
    expect(removed).toEqual({ ...start, reactionType: [...start.reactionType] });
  });

  it("drops a type whose count reaches zero", () => {
    const mine: ReactionState = { likeAmount: 1, myLike: true, myReaction: "skull", reactionType: [{ reactionType: "skull", count: 1 }] };
    expect(applyReaction(mine, null)).toEqual({ likeAmount: 0, myLike: false, myReaction: null, reactionType: [] });
  });

  it("clicking the same reaction removes it, another one replaces it", () => {
    expect(nextReaction("heart", "heart")).toBeNull();
    expect(nextReaction("heart", "fire")).toBe("fire");
    expect(nextReaction(null, "owl")).toBe("owl");
  });
});

describe("search highlighting", () => {
  it("matches other forms of a Russian word", () => {
    const stems = queryStems("кошками");
    expect(highlightParts("Моя кошка спит", stems)).toEqual([
      { text: "Моя ", match: false },
      { text: "кошка", match: true },
      { text: " спит", match: false },
    ]);
  });

  it("marks only text between tags and never forms markup", () => {
    const html = '<p>Кошки <a href="https://example.com/кошки" rel="nofollow noopener ugc">кошку</a> &amp; кот</p>';
    const out = highlightHtml(html, queryStems("кошка"));
    expect(out).toBe('<p><mark>Кошки</mark> <a href="https://example.com/кошки" rel="nofollow noopener ugc"><mark>кошку</mark></a> &amp; кот</p>');
  });

  it("leaves entities alone and ignores an empty query", () => {
    expect(highlightHtml("<p>&amp; amp</p>", queryStems("amp"))).toBe("<p>&amp; <mark>amp</mark></p>");
    expect(highlightHtml("<p>x</p>", queryStems("  "))).toBe("<p>x</p>");
  });
});

describe("schedule hours (spec section 9: 8 to 23)", () => {
  it("offers 8–23 on a later day and only hours still ahead today", () => {
    const now = localMoment("2026-11-23", 15);
    expect(hoursLeft("2026-11-24", now)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]);
    expect(hoursLeft("2026-11-23", new Date(now.getTime() + 60_000))).toEqual([16, 17, 18, 19, 20, 21, 22, 23]);
    expect(hoursLeft("2026-11-22", now)).toEqual([]);
  });
});

describe("new posts bar", () => {
  const post = (id: number, publishDate: string) => ({ id, publishDate }) as PostDto;
  it("counts only posts newer than the top of the list", () => {
    const shown = [post(5, "2026-11-23T10:00:00.000Z"), post(4, "2026-11-23T09:00:00.000Z")];
    const fresh = [post(7, "2026-11-23T11:00:00.000Z"), post(6, "2026-11-23T10:00:00.000Z"), post(5, "2026-11-23T10:00:00.000Z"), post(3, "2026-11-23T08:00:00.000Z")];
    expect(newerPosts(fresh, shown).map((p) => p.id)).toEqual([7, 6]);
  });

  it("counts all the newer posts, not only the page's (13 new after a page of 5; issue 24 item 17)", () => {
    const shown = [post(5, "2026-11-23T10:00:00.000Z"), post(4, "2026-11-23T09:00:00.000Z")];
    // Page 0 since the top's moment: the 5 newest of 13 new posts, of 14 posts from then on (the top too).
    const content = [18, 17, 16, 15, 14].map((id) => post(id, `2026-11-23T11:${id}:00.000Z`));
    expect(newPostsCount({ content, totalElements: 14 }, shown)).toBe(13);
    expect(newPostsCount({ content: [post(5, "2026-11-23T10:00:00.000Z")], totalElements: 1 }, shown)).toBe(0);
    // An empty list: everything is new.
    expect(newPostsCount({ content, totalElements: 13 }, [])).toBe(13);
    const path = newerPath({ kind: "feed" }, "2026-11-23T10:00:00.000Z");
    expect(new URLSearchParams(path.split("?")[1]).get("dateFrom")).toBe("2026-11-23T10:00:00.000Z");
    expect(new URLSearchParams(path.split("?")[1]).get("page")).toBe("0");
  });
});
