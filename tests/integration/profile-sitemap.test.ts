import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ServiceError } from "@/lib/server/http/errors";
import { getProfileFriends } from "@/lib/server/services/profiles/profile-friends";
import { getPublicProfile, isProfileListed } from "@/lib/server/services/profiles/public-profile";
import { listSitemapChunks, listSitemapProfiles, SITEMAP_MAX_URLS } from "@/lib/server/services/profiles/sitemap";
import { updateMyAccount } from "@/lib/server/services/accounts/update-account";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { makeFriends, setAccount, setPair } from "./friends-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

/** Every id the sitemap files list, walking the files the way a crawler would. */
async function walk(size: number): Promise<number[][]> {
  const cursors = await listSitemapChunks({ ctx: ctxOf(), input: { size } });
  return Promise.all(cursors.map(async (after) => (await listSitemapProfiles({ ctx: ctxOf(), input: { after, size } })).map((e) => e.id)));
}

async function listedIds(): Promise<number[]> {
  const rows = await getDb().execute<{ id: string }>(sql`select id from accounts where not is_deleted and profile_visibility = 'ALL' order by id`);
  return rows.map((r) => Number(r.id));
}

/** The plan of `query` with sequential and bitmap scans priced out, so a tiny table still shows which index can serve it. */
async function planOf(query: ReturnType<typeof sql>): Promise<string> {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = await tx.execute<{ "QUERY PLAN": string }>(sql`explain ${query}`);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

let accounts: Account[];

beforeAll(async () => {
  accounts = [];
  for (let i = 0; i < 8; i++) accounts.push(await signedInAccount({ firstName: `Map${"abcdefgh"[i]}`, lastName: "Test" }));
  // Two deleted accounts in the middle of the id range: they must leave no gap and no entry.
  await setAccount(accounts[2].id, { isDeleted: true });
  await setAccount(accounts[5].id, { isDeleted: true });
  // A closed page (friends only) is not offered to search engines either.
  await getDb().execute(sql`update accounts set profile_visibility = 'FRIENDS' where id = ${accounts[6].id}`);
});

describe("sitemap of public profile shells", () => {
  it("lists every non-deleted account once, in id order, never a deleted one", async () => {
    const files = await walk(SITEMAP_MAX_URLS);
    expect(files).toHaveLength(1);
    expect(files[0]).toEqual(await listedIds());
    expect(files[0]).not.toContain(accounts[2].id);
    expect(files[0]).not.toContain(accounts[5].id);
    expect(files[0]).not.toContain(accounts[6].id);
    expect(files[0]).toContain(accounts[7].id);
  });

  it("splits into files of at most `size` entries that together list each account exactly once", async () => {
    const all = await listedIds();
    expect(all).toHaveLength(5);
    for (const size of [1, 2, 3, 4, 5, 6, 7]) {
      const files = await walk(size);
      expect(files.length, `size ${size}`).toBe(Math.ceil(all.length / size));
      for (const file of files) {
        expect(file.length).toBeGreaterThan(0);
        expect(file.length).toBeLessThanOrEqual(size);
      }
      expect(files.flat(), `size ${size}`).toEqual(all);
    }
  });

  it("names each file by the id its page starts after (keyset cursor)", async () => {
    const all = await listedIds();
    expect(await listSitemapChunks({ ctx: ctxOf(), input: { size: 4 } })).toEqual([0, all[3]]);
    expect(await listSitemapChunks({ ctx: ctxOf(), input: { size: 3 } })).toEqual([0, all[2]]);
    expect(await listSitemapChunks({ ctx: ctxOf(), input: { size: 2 } })).toEqual([0, all[1], all[3]]);
    expect(await listSitemapChunks({ ctx: ctxOf(), input: { size: 5 } })).toEqual([0]);
    // A cursor past the last account is an empty page, not an error.
    expect(await listSitemapProfiles({ ctx: ctxOf(), input: { after: all.at(-1)!, size: 10 } })).toEqual([]);
  });

  it("carries each profile's last change as lastModified", async () => {
    const before = Date.now() - 1000;
    await updateMyAccount({ ctx: accounts[7].ctx, input: { about: "changed" } });
    const [file] = await walk(SITEMAP_MAX_URLS);
    const entries = await listSitemapProfiles({ ctx: ctxOf(), input: { after: 0, size: SITEMAP_MAX_URLS } });
    expect(entries.map((e) => e.id)).toEqual(file);
    const changed = entries.find((e) => e.id === accounts[7].id)!;
    expect(changed.lastModified).toBeInstanceOf(Date);
    expect(changed.lastModified.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("refuses a malformed cursor or size", async () => {
    await expect(listSitemapProfiles({ ctx: ctxOf(), input: { after: -1, size: 10 } })).rejects.toThrow();
    await expect(listSitemapProfiles({ ctx: ctxOf(), input: { after: 0, size: SITEMAP_MAX_URLS + 1 } })).rejects.toThrow();
    await expect(listSitemapChunks({ ctx: ctxOf(), input: { size: 0 } })).rejects.toThrow();
  });

  it("is served by the partial index on listed (not deleted, not blocked) ids (keyset and numbering, index-only)", async () => {
    const closed = sql`id not in (select c.id from accounts c where c.profile_visibility <> 'ALL')`;
    const page = await planOf(sql`select id, updated_at from accounts where not is_deleted and not is_blocked and id > 3 and ${closed} order by id limit 50000`);
    expect(page).toContain("accounts_listed_id_idx");
    expect(page).toMatch(/Index Only Scan/);
    expect(page).not.toMatch(/Sort/);
    const numbering = await planOf(sql`select id, row_number() over (order by id) from accounts where not is_deleted and not is_blocked and ${closed}`);
    expect(numbering).toContain("accounts_listed_id_idx");
    expect(numbering).not.toMatch(/Sort/);
  });
});

describe("public profile shell", () => {
  it("holds name, photo, city and about only", async () => {
    const a = accounts[0];
    await updateMyAccount({
      ctx: a.ctx,
      input: { city: "Казань", country: "RU", about: "Люблю горы", phone: "+7 900 123-45-67", birthDate: "1990-06-15", emojiStatus: "cool" },
    });
    const shell = await getPublicProfile({ ctx: ctxOf(), input: { id: String(a.id) } });
    expect(shell).toEqual({ id: a.id, firstName: "Mapa", lastName: "Test", fullName: "Mapa Test", photo: null, city: "Казань", about: "Люблю горы", isClosed: false });
  });

  it("is 404 for a deleted, unknown or malformed id", async () => {
    for (const id of [String(accounts[2].id), "999999999", "abc", "0"]) {
      const err = await getPublicProfile({ ctx: ctxOf(), input: { id } }).catch((e: unknown) => e);
      expect(err, id).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe("not_found");
    }
    expect(await isProfileListed(getDb(), accounts[2].id)).toBe(false);
    expect(await isProfileListed(getDb(), accounts[0].id)).toBe(true);
  });
});

describe("profile friends block", () => {
  it("shows another account's newest friends and count, without its deleted friends or other relations", async () => {
    const [owner, viewer, , f3, f4, , f6, f7] = accounts;
    const base = Date.now() - 3_600_000;
    await makeFriends(owner.id, f3.id, new Date(base));
    await makeFriends(owner.id, f4.id, new Date(base + 60_000));
    await makeFriends(owner.id, accounts[5].id, new Date(base + 120_000)); // deleted friend
    await makeFriends(owner.id, f7.id, new Date(base + 180_000));
    await setPair(owner.id, f6.id, ["REQUEST_TO", "REQUEST_FROM"]);
    const block = await getProfileFriends({ ctx: viewer.ctx, input: { id: owner.id } });
    expect(block.count).toBe(3);
    expect(block.friends.map((f) => f.id)).toEqual([f7.id, f4.id, f3.id]);
    expect(block.friends[0]).toMatchObject({ firstName: "Maph", lastName: "Test", fullName: "Maph Test" });
    expect(block.friends[0]).not.toHaveProperty("email");
    const small = await getProfileFriends({ ctx: viewer.ctx, input: { id: owner.id, size: 2 } });
    expect(small).toMatchObject({ count: 3 });
    expect(small.friends).toHaveLength(2);
  });

  it("needs a signed-in viewer and a listed account", async () => {
    const err = await getProfileFriends({ ctx: ctxOf(), input: { id: accounts[0].id } }).catch((e: unknown) => e);
    expect((err as ServiceError).code).toBe("unauthorized");
    const gone = await getProfileFriends({ ctx: accounts[1].ctx, input: { id: accounts[2].id } }).catch((e: unknown) => e);
    expect((gone as ServiceError).code).toBe("not_found");
    // The viewer's own block works even while the own account is deleted (the restore screen).
    expect(await getProfileFriends({ ctx: accounts[2].ctx, input: { id: accounts[2].id } })).toEqual({ count: 0, friends: [] });
  });
});
