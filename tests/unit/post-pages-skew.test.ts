// A list's later page after a rolling restart (docs/adr/0149, 0150): the new build no longer knows the old
// page's server action, and the page is loaded whole from the new build instead of showing an error.
import { afterEach, describe, expect, it, vi } from "vitest";
import { UnrecognizedActionError } from "next/dist/client/components/unrecognized-action-error";

const readCardPage = vi.fn();
vi.mock("@/components/post/card-pages-action", () => ({ readCardPage: (...args: unknown[]) => readCardPage(...args) }));

const { readCards } = await import("@/components/post/use-post-pages");

describe("readCards (post lists' pages from the server)", () => {
  const reload = vi.fn();
  vi.stubGlobal("window", { location: { reload } });
  afterEach(() => {
    readCardPage.mockReset();
    reload.mockReset();
  });

  it("answers the action's page", async () => {
    readCardPage.mockResolvedValueOnce({ page: { posts: [], number: 1, totalPages: 1 } });
    await expect(readCards({ kind: "feed" }, 1)).resolves.toEqual({ page: { posts: [], number: 1, totalPages: 1 } });
    expect(readCardPage).toHaveBeenCalledWith({ kind: "feed" }, 1);
    expect(reload).not.toHaveBeenCalled();
  });

  it("reloads the page when the build no longer knows the action", async () => {
    readCardPage.mockRejectedValueOnce(new UnrecognizedActionError("Server Action \"abc\" was not found on the server."));
    await expect(readCards({ kind: "wall", accountId: 7 }, 2)).rejects.toBeInstanceOf(UnrecognizedActionError);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("leaves any other failure (the network) to the list's error block", async () => {
    readCardPage.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await expect(readCards({ kind: "feed" }, 3)).rejects.toBeInstanceOf(TypeError);
    expect(reload).not.toHaveBeenCalled();
  });
});
