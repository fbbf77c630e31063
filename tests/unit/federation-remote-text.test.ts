// Text from other servers is hostile (issue 43): whatever a remote document holds, what is stored is
// bounded, well-formed, free of the characters Postgres refuses, and read in linear time.
import { describe, expect, it } from "vitest";
import { cleanRemoteText, remoteAboutText, remoteHtmlText, splitRemoteName } from "@/lib/server/federation/remote";

describe("remote text", () => {
  it("drops NUL and control characters, mends lone surrogates, keeps line breaks", () => {
    expect(cleanRemoteText("a\u0000b\u0007c\nd\uD800e", 100)).toBe("abc\nd\uFFFDe");
  });

  it("cuts to the bound in characters, not code units", () => {
    expect(cleanRemoteText("😀".repeat(10), 3)).toBe("😀😀😀");
  });

  it("reads HTML as text: tags dropped, paragraphs and breaks kept, entities read", () => {
    expect(remoteHtmlText('<p>Привет, <a href="x">@анна</a></p><p>a &amp; b<br>c &lt;3</p>', 100)).toBe("Привет, @анна\n\na & b\nc <3");
    expect(remoteAboutText("<script>x</script>ok")).toBe("xok");
  });

  it("reads a megabyte of unclosed brackets as bounded text (a bracket only ever matches up to the next one)", () => {
    const hostile = "<".repeat(1_000_000) + "<p" + " ".repeat(100_000);
    expect(remoteHtmlText(hostile, 2000)).toBe("<".repeat(2000));
    expect(remoteHtmlText("<b>x</b>".repeat(100_000), 10)).toBe("x".repeat(10));
  });

  it("splits a display name as a first and a last name, so it declines; one word stays whole", () => {
    expect(splitRemoteName("Вера Соседова")).toEqual({ first: "Вера", last: "Соседова" });
    expect(splitRemoteName("  Анна\n Мария   ван  Дейк ")).toEqual({ first: "Анна", last: "Мария ван Дейк" });
    expect(splitRemoteName("durov")).toEqual({ first: "durov", last: "" });
    expect(splitRemoteName("🌻 Sunflower")).toEqual({ first: "🌻", last: "Sunflower" });
  });
});
