import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it, vi } from "vitest";
import { lazyResolver } from "@/lib/client/lazy-resolver";
import { loginInput, type LoginInput } from "@/lib/validation/auth";

// ADR 103: the auth forms load their zod schema on first use; the checks are the shared schema's.
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe("lazyResolver", () => {
  it("validates with the schema it loads, once, however often it is asked", async () => {
    const load = vi.fn(async () => zodResolver(loginInput));
    const { resolver, preload } = lazyResolver<LoginInput>(load);
    preload();
    preload();
    const bad = await resolver({ email: "not-an-address", password: "" }, undefined, options);
    expect(Object.keys(bad.errors)).toEqual(expect.arrayContaining(["email", "password"]));
    const good = await resolver({ email: " anna@example.com ", password: "secret" }, undefined, options);
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({ email: "anna@example.com", password: "secret" });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("lets the values through to the server when the schema cannot be loaded, and tries again next time", async () => {
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new Error("chunk failed to load");
      return zodResolver(loginInput);
    });
    const { resolver } = lazyResolver<LoginInput>(load);
    const first = await resolver({ email: "x", password: "" }, undefined, options);
    expect(first).toEqual({ values: { email: "x", password: "" }, errors: {} });
    fail = false;
    const second = await resolver({ email: "x", password: "" }, undefined, options);
    expect(Object.keys(second.errors)).toContain("email");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
