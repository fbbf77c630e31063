import { describe, expect, it } from "vitest";
import { readableMessage } from "@/lib/client/error-message";

describe("readableMessage: what the error page shows after 'Ошибка:'", () => {
  it("shows a failure's own text from the browser (a chunk that did not load)", () => {
    const chunk = Object.assign(new Error("Loading chunk 123 failed."), { name: "ChunkLoadError" });
    expect(readableMessage(chunk)).toBe("Loading chunk 123 failed.");
  });

  it("hides a server failure: its text stays in the server's log, the browser gets a digest", () => {
    const fromServer = Object.assign(new Error("Failed query: select … sorry, too many clients already"), { digest: "2731484219" });
    expect(readableMessage(fromServer)).toBeNull();
  });

  it("hides React's placeholder for a server component's failure, in English for developers", () => {
    const placeholder = new Error("Minified React error #441; visit https://react.dev/errors/441 for the full message or use the non-minified dev environment for full errors and additional helpful warnings.");
    expect(readableMessage(placeholder)).toBeNull();
  });

  it("has nothing to show for a non-error or an empty message", () => {
    expect(readableMessage("boom")).toBeNull();
    expect(readableMessage(new Error(""))).toBeNull();
    expect(readableMessage(undefined)).toBeNull();
  });
});
