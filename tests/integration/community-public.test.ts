// The public shell of a community (issue 42): what publicCommunity reads for a signed-out visitor or a
// crawler, the status the proxy sets, and the community sitemaps (live OPEN communities only).
import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { communities } from "@/db/schema";
import { communityStatus, listCommunitySitemapChunks, listSitemapCommunities, publicCommunity } from "@/lib/server/services/communities/public";
import { ctxOf, signedInAccount } from "./helpers/factories";

type Kind = "OPEN" | "CLOSED" | "PRIVATE";
const ids: Record<string, number> = {};

async function make(key: string, type: Kind, extra: Partial<typeof communities.$inferInsert> = {}): Promise<void> {
  const owner = await signedInAccount({ firstName: "Пуб", lastName: key });
  const [row] = await getDb()
    .insert(communities)
    .values({ name: `Публичное ${key}`, description: `Про ${key}`, photo: "/storage/photo.png", cover: "/storage/cover.png", type, ownerId: owner.id, membersCount: 7, ...extra })
    .returning({ id: communities.id });
  ids[key] = row.id;
}

beforeAll(async () => {
  await make("open", "OPEN");
  await make("closed", "CLOSED");
  await make("private", "PRIVATE");
  await make("deleted", "OPEN", { isDeleted: true, deletedAt: new Date() });
  await make("blocked", "OPEN", { isBlocked: true });
  await make("open2", "OPEN");
  await make("open3", "OPEN");
});

describe("publicCommunity", () => {
  it("an open community: its name, description, photo, cover and members count, nothing else", async () => {
    const c = await publicCommunity(getDb(), ids.open);
    expect(c).toEqual({ id: ids.open, name: "Публичное open", description: "Про open", photo: "/storage/photo.png", cover: "/storage/cover.png", type: "OPEN", membersCount: 7 });
  });

  it("a closed community: only its name, description and count", async () => {
    const c = await publicCommunity(getDb(), String(ids.closed));
    expect(c).toEqual({ id: ids.closed, name: "Публичное closed", description: "Про closed", photo: null, cover: null, type: "CLOSED", membersCount: 7 });
  });

  it("a private, deleted, blocked, missing or malformed one has no shell", async () => {
    for (const id of [ids.private, ids.deleted, ids.blocked, 9_000_000_000, "abc", "-1", 0]) expect(await publicCommunity(getDb(), id), String(id)).toBeNull();
  });

  it("the proxy's status: 404 to a signed-out visitor without a shell; signed in, only for a missing or blocked one", async () => {
    expect(await communityStatus(getDb(), String(ids.open), false)).toBeUndefined();
    expect(await communityStatus(getDb(), String(ids.closed), false)).toBeUndefined();
    for (const key of ["private", "deleted", "blocked"]) expect(await communityStatus(getDb(), String(ids[key]), false), key).toBe(404);
    expect(await communityStatus(getDb(), "9000000000", false)).toBe(404);
    // A member reads a private one, an owner restores a deleted one: the page decides for them.
    expect(await communityStatus(getDb(), String(ids.private), true)).toBeUndefined();
    expect(await communityStatus(getDb(), String(ids.deleted), true)).toBeUndefined();
    expect(await communityStatus(getDb(), String(ids.blocked), true)).toBe(404);
    expect(await communityStatus(getDb(), "9000000000", true)).toBe(404);
  });
});

describe("community sitemaps", () => {
  async function walk(size: number): Promise<number[][]> {
    const cursors = await listCommunitySitemapChunks({ ctx: ctxOf(), input: { size } });
    return Promise.all(cursors.map(async (after) => (await listSitemapCommunities({ ctx: ctxOf(), input: { after, size } })).map((e) => e.id)));
  }

  it("lists the live open communities once each, in id order, never a closed, private, deleted or blocked one", async () => {
    const files = await walk(50_000);
    expect(files).toHaveLength(1);
    const listed = files[0];
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    for (const key of ["open", "open2", "open3"]) expect(listed.filter((id) => id === ids[key]), key).toHaveLength(1);
    for (const key of ["closed", "private", "deleted", "blocked"]) expect(listed, key).not.toContain(ids[key]);
    const entries = await listSitemapCommunities({ ctx: ctxOf(), input: { after: ids.open - 1, size: 1 } });
    expect(entries).toEqual([{ id: ids.open, lastModified: expect.any(Date) }]);
  });

  it("splits into files of at most `size` entries that together list each open community exactly once", async () => {
    const whole = (await walk(50_000))[0];
    const files = await walk(2);
    expect(files.length).toBe(Math.max(1, Math.ceil(whole.length / 2)));
    for (const file of files) expect(file.length).toBeLessThanOrEqual(2);
    expect(files.flat()).toEqual(whole);
    const rows = await getDb().select({ id: communities.id }).from(communities).where(inArray(communities.id, Object.values(ids)));
    expect(rows).toHaveLength(7);
  });
});
