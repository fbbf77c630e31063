import { describe, expect, it } from "vitest";
import { afterLoginPath, decideRoute, isAdminPath, loginHref, matchRoute, pathOf } from "@/lib/routes";

describe("route table", () => {
  it("names the routes of spec section 2", () => {
    expect(matchRoute("/")?.route.name).toBe("News");
    expect(matchRoute("/im")?.route.name).toBe("Im");
    expect(matchRoute("/im/7")).toMatchObject({ route: { name: "ImChat" }, params: { activeDialogId: "7" } });
    expect(matchRoute("/profile")?.route.name).toBe("Profile");
    expect(matchRoute("/profile/5")).toMatchObject({ route: { name: "ProfileId" }, params: { id: "5" } });
    expect(matchRoute("/friends/find")?.route.name).toBe("FriendsFind");
    expect(matchRoute("/change-password/abcDEF123_-xyz")?.route.name).toBe("ChangePassword");
    expect(matchRoute("/nowhere")).toBeNull();
    expect(matchRoute("/profile/5/extra")).toBeNull();
  });

  it("builds paths only from well-formed params", () => {
    expect(pathOf("ProfileId", { id: "42" })).toBe("/profile/42");
    expect(pathOf("ProfileId", { id: "0" })).toBeNull();
    expect(pathOf("ProfileId", { id: "abc" })).toBeNull();
    expect(pathOf("ProfileId", {})).toBeNull();
    expect(pathOf("ImChat", { activeDialogId: "//evil.com" })).toBeNull();
    expect(pathOf("Nope")).toBeNull();
  });

  it("counts any path containing admin as an admin page", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/users")).toBe(true);
    expect(isAdminPath("/x/ADMIN")).toBe(true);
    expect(isAdminPath("/profile")).toBe(false);
  });
});

describe("routing rules", () => {
  it("sends a signed-out visitor of a protected page to login with the route name and its params", () => {
    expect(decideRoute("/", false)).toEqual({ kind: "redirect", to: "/login?redirect=News" });
    expect(decideRoute("/calculator", false)).toEqual({ kind: "redirect", to: "/login?redirect=Calculator" });
    expect(decideRoute("/settings", false)).toEqual({ kind: "redirect", to: "/login?redirect=Settings" });
    expect(decideRoute("/profile", false)).toEqual({ kind: "redirect", to: "/login?redirect=Profile" });
    expect(decideRoute("/im/9", false)).toEqual({ kind: "redirect", to: "/login?redirect=ImChat&activeDialogId=9" });
  });

  it("lets a signed-in viewer through and keeps them off the login page", () => {
    expect(decideRoute("/profile/5", true)).toEqual({ kind: "next" });
    expect(decideRoute("/login", true)).toEqual({ kind: "redirect", to: "/" });
    expect(decideRoute("/login", false)).toEqual({ kind: "next" });
  });

  it("renders the pages without a sign-in requirement for everyone", () => {
    // /profile/{id} serves the public shell to signed-out visitors (docs/adr/0014).
    for (const path of ["/friends", "/friends/find", "/search", "/push", "/registration", "/forgot", "/profile/5"]) {
      expect(decideRoute(path, false)).toEqual({ kind: "next" });
    }
  });

  it("leaves unknown paths to the catch-all page", () => {
    expect(decideRoute("/no/such/page", false)).toEqual({ kind: "next" });
  });

  it("round-trips: the login link of a page leads back to that page", () => {
    for (const path of ["/", "/calculator", "/im", "/im/3", "/profile", "/profile/12", "/settings"]) {
      const href = loginHref(matchRoute(path)!);
      expect(afterLoginPath(new URL(href, "http://x").searchParams)).toBe(path);
    }
  });
});

describe("after-login destination", () => {
  it("resolves names from the table, with params from the query", () => {
    expect(afterLoginPath({ redirect: "Settings" })).toBe("/settings");
    expect(afterLoginPath({ redirect: "ProfileId", id: "5" })).toBe("/profile/5");
    expect(afterLoginPath({ redirect: ["ImChat"], activeDialogId: ["8", "9"] })).toBe("/im/8");
    expect(afterLoginPath({ redirect: "Search" })).toBe("/search");
  });

  it("never follows an arbitrary URL (no open redirect)", () => {
    for (const redirect of ["https://evil.example", "//evil.example", "/profile", "javascript:alert(1)", "Login", "Registration"]) {
      expect(afterLoginPath({ redirect })).toBe("/");
    }
    expect(afterLoginPath({ redirect: "ProfileId", id: "//evil.example" })).toBe("/");
    expect(afterLoginPath({ redirect: "ProfileId" })).toBe("/");
    expect(afterLoginPath({})).toBe("/");
  });
});
