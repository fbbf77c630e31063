import { describe, expect, it } from "vitest";
import { redactPath } from "@/lib/server/http/redact-path";

// The request log's path (lib/server/http/redact-path.ts): a mailed secret never reaches a log line;
// paths without one come back as they are (the common case answers without splitting, docs/adr/0153).
describe("redactPath", () => {
  it("replaces a segment of 20 or more URL-safe characters, wherever it stands", () => {
    const secret = "Ab3_-%x9Ab3_-%x9Ab3_-";
    expect(redactPath(`/api/v1/auth/password/recovery/${secret}`)).toBe("/api/v1/auth/password/recovery/:secret");
    expect(redactPath(`/${secret}/and/more`)).toBe("/:secret/and/more");
    expect(redactPath(`/a/${"x".repeat(20)}`)).toBe("/a/:secret");
  });

  it("leaves every other path exactly as it was", () => {
    for (const p of ["/api/v1/account/me", "/api/v1/post/newsPosts", "/api/v1/post/12345678901234567/comment", "/", "", "/a/b/", "/x.y.z/" + "w".repeat(19)]) {
      expect(redactPath(p)).toBe(p);
    }
    // A run of 20 broken by a character outside the class is not a secret.
    expect(redactPath(`/a/${"x".repeat(10)}.${"y".repeat(10)}`)).toBe(`/a/${"x".repeat(10)}.${"y".repeat(10)}`);
    // A 20-character run inside a longer segment with other characters is not a whole-segment secret either.
    expect(redactPath(`/a/${"x".repeat(20)}.json`)).toBe(`/a/${"x".repeat(20)}.json`);
  });
});
