import { describe, expect, it } from "vitest";
import {
  createPostInput,
  editPostInput,
  feedQuery,
  normalizeTagName,
  postListQuery,
  reactionInput,
  tagSearchQuery,
  visibleText,
} from "@/lib/validation/post";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { REACTIONS, REACTION_TYPES, reactionEmoji } from "@/lib/validation/reactions";

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];
const base = { title: "Котики", postText: "<p>Очень милые котики</p>" };

describe("createPostInput", () => {
  it("normalises the title, tags and reads false/null/absent publishDate as now", () => {
    for (const publishDate of [false, null, undefined]) {
      const v = createPostInput.parse({ ...base, title: "  Котики \n дома ", tags: [{ name: "Кот ики" }, "кОТ_ИКИ", { id: 3, name: "cats!" }], publishDate });
      expect(v).toEqual({ title: "Котики дома", postText: base.postText, tags: ["Кот_ики", "cats"], imagePath: null, publishDate: null });
    }
  });

  it("ignores server-owned fields", () => {
    const v = createPostInput.parse({ ...base, authorId: 9, likeAmount: 100, isDeleted: true, myLike: true, time: "2020-01-01" });
    expect(Object.keys(v).sort()).toEqual(["imagePath", "postText", "publishDate", "tags", "title"]);
  });

  it("refuses short titles and texts with the spec's message", () => {
    expect(messages(createPostInput.safeParse({ ...base, title: " abc " }))).toEqual(["postErrors.titleText"]);
    expect(messages(createPostInput.safeParse({ ...base, postText: "<p><b>1234567</b></p>" }))).toEqual(["postErrors.titleText"]);
    expect(createPostInput.safeParse({ ...base, title: "abcd", postText: "<p>12345678</p>" }).success).toBe(true);
    expect(messages(createPostInput.safeParse({ ...base, title: "я".repeat(201) }))).toEqual(["postErrors.titleTooLong"]);
    expect(createPostInput.safeParse({ ...base, title: "😀".repeat(200) }).success).toBe(true);
  });

  it("refuses a schedule in the past and keeps a future one", () => {
    expect(messages(createPostInput.safeParse({ ...base, publishDate: "2020-01-01T10:00:00Z" }))).toEqual(["postErrors.scheduledInPast"]);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(createPostInput.parse({ ...base, publishDate: future }).publishDate?.toISOString()).toBe(future);
    expect(messages(createPostInput.safeParse({ ...base, publishDate: "tomorrow" }))).toEqual(["postErrors.publishDateInvalid"]);
  });

  it("refuses more than 10 distinct tags, but collapses duplicates first", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `tag${i}` }));
    expect(messages(createPostInput.safeParse({ ...base, tags: eleven }))).toEqual(["postErrors.tooManyTags"]);
    const dupes = Array.from({ length: 15 }, (_, i) => ({ name: i % 2 ? "Same" : "same" }));
    expect(createPostInput.parse({ ...base, tags: dupes }).tags).toEqual(["same"]);
    expect(messages(createPostInput.safeParse({ ...base, tags: [{ name: "!!!" }] }))).toEqual(["postErrors.tagInvalid"]);
  });

  it("accepts only image paths this server issues", () => {
    expect(createPostInput.safeParse({ ...base, imagePath: `/api/v1/storage/files/${"a".repeat(32)}.webp` }).success).toBe(true);
    expect(messages(createPostInput.safeParse({ ...base, imagePath: "https://evil.example/x.png" }))).toEqual(["uploadErrors.notStoredPath"]);
  });
});

describe("editPostInput", () => {
  it("needs an id and lets a past publishDate through to the service", () => {
    expect(editPostInput.parse({ ...base, id: "12", publishDate: "2020-01-01T00:00:00Z" }).id).toBe(12);
    expect(messages(editPostInput.safeParse({ ...base, id: "x" }))).toEqual(["postErrors.badId"]);
  });
});

describe("tag names", () => {
  it("keep Latin, Cyrillic, digits and _, at most 10 characters", () => {
    expect(normalizeTagName(" hello world ")).toBe("hello_worl");
    expect(normalizeTagName("Ёжик-2026")).toBe("Ёжик2026");
    expect(normalizeTagName("日本語ok")).toBe("ok");
    expect(tagSearchQuery.parse({ name: "Ко т" })).toEqual({ name: "Ко_т" });
  });
});

describe("list queries", () => {
  it("reads the feed query with defaults and page < 0 as 0", () => {
    expect(feedQuery.parse({ withFriends: "true", page: "-3", sort: "time,desc", isDeleted: "false" })).toEqual({ withFriends: true, page: 0, size: 5 });
    expect(feedQuery.safeParse({ page: "abc" }).success).toBe(false);
    expect(messages(feedQuery.safeParse({ dateFrom: "2025-02-01T00:00:00Z", dateTo: "2025-01-01T00:00:00Z" }))).toEqual(["postErrors.dateRange"]);
  });

  it("makes GET post a wall with accountIds or accountId, else a feed", () => {
    expect(postListQuery.parse({ accountIds: "7" })).toMatchObject({ kind: "wall", accountIds: [7], size: 3 });
    expect(postListQuery.parse({ accountId: "7,8" })).toMatchObject({ kind: "wall", accountIds: [7, 8] });
    expect(postListQuery.parse({ withFriends: "true", tags: "a b,c" })).toMatchObject({ kind: "feed", withFriends: true, tags: ["a_b", "c"], size: 5 });
  });
});

describe("reactions", () => {
  it("has 69 distinct types including the spec's examples", () => {
    expect(REACTIONS).toHaveLength(69);
    expect(new Set(REACTION_TYPES).size).toBe(69);
    for (const t of ["big-smile", "heart", "thumbs-up", "fire", "skull", "owl"]) expect(REACTION_TYPES).toContain(t);
    expect(reactionEmoji("heart")).toBe("❤️");
  });

  it("refuses unknown types and other targets", () => {
    expect(reactionInput.parse({ type: "POST", reactionType: "fire" })).toEqual({ type: "POST", reactionType: "fire" });
    expect(reactionInput.parse({})).toEqual({ reactionType: "thumbs-up" });
    expect(messages(reactionInput.safeParse({ reactionType: "nope" }))).toEqual(["postErrors.reactionUnknown"]);
    expect(messages(reactionInput.safeParse({ type: "COMMENT", reactionType: "fire" }))).toEqual(["postErrors.reactionTarget"]);
  });
});

describe("sanitizePostHtml", () => {
  it("keeps the allowlist and safe links only", () => {
    expect(sanitizePostHtml('<p onclick="x">a <strong>b</strong> <a href="https://x.y" target="_blank">l</a></p>')).toBe(
      '<p>a <strong>b</strong> <a href="https://x.y" rel="nofollow noopener ugc">l</a></p>',
    );
    expect(sanitizePostHtml('<a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)><script>alert(1)</script><h1>t</h1>')).toBe(
      '<a rel="nofollow noopener ugc">x</a>t',
    );
    expect(visibleText("<p>a&nbsp;b</p><p>c &amp; d</p>")).toBe("a b c & d");
  });

  it("gives the same result for a repeated input (the render cache per post is in post-html-bounds.test.ts)", () => {
    const evil = '<p>x<img src=x onerror=alert(1)><a href="javascript:void(0)">y</a></p>';
    const first = sanitizePostHtml(evil);
    expect(first).toBe('<p>x<a rel="nofollow noopener ugc">y</a></p>');
    expect(sanitizePostHtml(evil)).toBe(first);
    expect(sanitizePostHtml(`<p>${"б".repeat(60_000)}</p><iframe></iframe>`)).toBe(`<p>${"б".repeat(60_000)}</p>`);
  });
});
