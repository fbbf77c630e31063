import { describe, expect, it } from "vitest";
import { updateAccountInput } from "@/lib/validation/account";
import { blockInput } from "@/lib/validation/admin";
import { commentTextSchema } from "@/lib/validation/comment";
import { messageTextSchema } from "@/lib/validation/dialogs";
import { createPostInput, feedQuery } from "@/lib/validation/post";
import { hasControls, lineString, stripControls, stripLineControls, textString } from "@/lib/validation/text";

// Issue 24 item 4 (docs/adr/0111): one rule for control characters in every text schema.

const C0_EXCEPT_LINES = [...Array(32).keys()].filter((c) => c !== 9 && c !== 10 && c !== 13).map((c) => String.fromCharCode(c));

describe("text rules", () => {
  it("multi-line text drops NUL, the other C0 controls and DEL, keeps tab and new lines", () => {
    expect(stripControls(`a${C0_EXCEPT_LINES.join("")}\u007fb\tc\r\nd`)).toBe("ab\tc\r\nd");
  });

  it("one-line text makes tab and new lines a space so words stay apart", () => {
    expect(stripLineControls("Анна\tМария\r\nИванова\u0000")).toBe("Анна Мария  Иванова");
  });

  it("a lone surrogate becomes U+FFFD; a pair (an emoji) is kept", () => {
    expect(stripControls("a\ud800b\udc00c😀")).toBe("a\ufffdb\ufffdc😀");
    expect(hasControls("x\ud83d", { multiline: true })).toBe(true);
    expect(hasControls("😀 ok\n", { multiline: true })).toBe(false);
    expect(hasControls("ok\n", { multiline: false })).toBe(true);
  });

  it("the schemas stay zod strings: trim and max apply after the cleaning", () => {
    expect(lineString().trim().max(3).parse("\u0000 ab \u0000")).toBe("ab");
    expect(lineString().max(3).safeParse("\u0000\u0000\u0000abc").success).toBe(true);
    expect(textString().min(1).safeParse("\u0000").success).toBe(false);
  });

  it("every kind of text field applies it", () => {
    expect(messageTextSchema.parse("при\u0000вет")).toBe("привет");
    expect(commentTextSchema.parse("ком\u0000мент")).toBe("коммент");
    expect(blockInput.parse({ reason: "спам\u0000" }).reason).toBe("спам");
    const post = createPostInput.parse({ title: "Заго\u0000ловок\nпоста", postText: "<p>Текст\u0000 поста для проверки</p>" });
    expect(post.title).toBe("Заголовок поста");
    expect(post.postText).not.toContain("\u0000");
    expect(feedQuery.parse({ text: "%\u0000x", author: "\u0000" })).toMatchObject({ text: "%x", author: "" });
    // Profile fields refuse instead (they keep the user's exact text, with a message saying why).
    expect(updateAccountInput.safeParse({ about: "a\u0000b" }).success).toBe(false);
    expect(updateAccountInput.safeParse({ city: "Мос\tква" }).success).toBe(false);
    expect(updateAccountInput.parse({ about: "строка\nещё" }).about).toBe("строка\nещё");
  });
});
