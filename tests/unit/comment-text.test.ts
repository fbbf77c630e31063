import { describe, expect, it } from "vitest";
import { linkParts } from "@/components/post/comment-text";

describe("comment text (issue 10: links clickable, nothing else interpreted)", () => {
  it("splits http(s) links out of plain text, leaving trailing punctuation as text", () => {
    expect(linkParts("см. https://example.com/a?b=1. и (http://x.ru/путь)!")).toEqual([
      "см. ",
      { href: "https://example.com/a?b=1" },
      ". и (",
      { href: "http://x.ru/путь" },
      ")!",
    ]);
  });

  it("leaves markup and other schemes as text", () => {
    expect(linkParts('<a href="javascript:alert(1)">x</a> javascript:alert(1) ftp://host')).toEqual([
      '<a href="javascript:alert(1)">x</a> javascript:alert(1) ftp://host',
    ]);
    expect(linkParts("строка 1\nhttps://a.b\nстрока 2")).toEqual(["строка 1\n", { href: "https://a.b" }, "\nстрока 2"]);
    expect(linkParts("")).toEqual([]);
  });
});
