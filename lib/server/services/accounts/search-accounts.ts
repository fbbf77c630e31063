import "server-only";
import { and, asc, count, desc, eq, inArray, ne, not, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts, friendships } from "@/db/schema";
import type { Viewer } from "@/lib/server/auth/viewer";
import type { Locale } from "@/lib/i18n/config";
import { findCountry } from "@/lib/server/geo/countries";
import { cityIdsContaining, countryCodesContaining } from "@/lib/server/geo/places";
import { ForbiddenError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  accountSearchQuery,
  accountStatusSearchQuery,
  type AccountSearchQuery,
} from "@/lib/validation/account";
import { nameLatin } from "@/lib/server/search/name-latin";
import { requireViewer, type ServiceCtx } from "../context";
import {
  authorTerm,
  fieldTerm,
  FIRST,
  LAST,
  prefixCount,
  prefixCountSql,
  prefixEstimate,
  prefixPageIds,
  prefixPageSql,
  prefixPlan,
  termMatches,
  type Term,
} from "./search-by-prefix";
import { findableBy } from "../privacy/rules";
import { looksLikeAddress } from "@/lib/server/federation/remote";
import { accountDtoSelection, toAccountDto, viewerFriendshipJoin, type AccountDto } from "./account-dto";

// The same expressions as the trigram indexes of db/schema/accounts.ts, so the planner can use them.
const firstNameLower = sql`lower(${accounts.firstName})`;
const lastNameLower = sql`lower(${accounts.lastName})`;
const fullNameLower = sql`lower(${accounts.firstName} || ' ' || ${accounts.lastName})`;

/** `%text%` with LIKE's own wildcards escaped: a user's "%" or "_" matches only itself. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains" on a lower(...) expression (Russian and English alike: lower() is Unicode-aware). */
function contains(lowered: SQL, text: string): SQL {
  return sql`${lowered} like lower(${containsPattern(text)})`;
}

/** Trigrams need three letters: shorter text is matched as a prefix of a name, through a btree range. */
const SHORT = 3;
const isShort = (text: string) => [...text].length < SHORT;

/** `lower(name) collate "C" like 'ab%'`: the expression of accounts_*_prefix_idx, so it is an index range. */
function startsWith(column: typeof accounts.firstName | typeof accounts.lastName, text: string): SQL {
  const pattern = `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`lower(${column}) collate "C" like ${pattern}`;
}

/** One name field: a part of the name, or (one or two letters) its beginning. */
function nameMatches(column: typeof accounts.firstName | typeof accounts.lastName, lowered: SQL, text: string): SQL {
  return isShort(text) ? startsWith(column, text) : contains(lowered, text);
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean).slice(0, 5);
}

/**
 * A word of three letters or more: part of the name as written, or (docs/adr/0132) part of its
 * cross-script key — «Глеб» finds "Gleb" and "Gleb" finds «Глеб». Both sides are trigram-indexed
 * (accounts_full_name_trgm_idx, accounts_name_latin_trgm_idx): a BitmapOr of two index scans. A key
 * shorter than three letters (a word of symbols, a script the library does not know) adds nothing.
 */
function wordMatches(word: string): SQL {
  const key = nameLatin(word);
  if (key.length < SHORT) return contains(fullNameLower, word);
  return sql`(${contains(fullNameLower, word)} or ${accounts.nameLatin} like ${containsPattern(key)})`;
}

/**
 * Place filters (docs/adr/0044): a country by its code (typed as a code or a whole title in either
 * language) through accounts_listed_place_idx; a part of a title by the codes or GeoNames ids whose
 * title contains it (a city within the country), or, for another client's unresolved text, by that text.
 */
function placeConditions(q: AccountSearchQuery): SQL[] {
  const where: SQL[] = [];
  const code = q.countryId ?? (q.country ? findCountry(q.country) : null);
  if (code) where.push(eq(accounts.countryCode, code));
  else if (q.country) where.push(idsOrText(accounts.countryCode, countryCodesContaining(q.country), "text", accounts.country, q.country));
  if (q.cityId !== undefined) where.push(eq(accounts.cityId, q.cityId));
  else if (q.city) where.push(idsOrText(accounts.cityId, cityIdsContaining(q.city, code), "int", accounts.city, q.city));
  return where;
}

/** `column = any(ids) or lower(text) like %typed%` (just the latter when no id matches). */
function idsOrText(column: typeof accounts.countryCode | typeof accounts.cityId, ids: (string | number)[], type: "text" | "int", text: typeof accounts.country | typeof accounts.city, typed: string): SQL {
  const byText = contains(sql`lower(${text})`, typed);
  return ids.length ? sql`(${column} = any(${sql.param(ids)}::${sql.raw(type)}[]) or ${byText})` : byText;
}

// Today in UTC, as the DTO's age is computed: the database session's time zone does not matter.
const todayUtc = sql`(now() at time zone 'UTC')::date`;

/** Birth dates of people at least `age` years old today: born on or before today minus `age` years. */
function bornAtLeastYearsAgo(age: number): SQL {
  return sql`${accounts.birthDate} <= (${todayUtc} - make_interval(years => ${age}::int))::date`;
}

function isStaff(viewer: Viewer): boolean {
  return viewer.role === "ADMIN" || viewer.role === "MODERATOR";
}

/** Who may be found at all: never the viewer, deleted only for staff asking, blocked only for staff, the unfindable only by friends. */
function visibilityConditions(viewer: Viewer, q: AccountSearchQuery): SQL[] {
  const where: SQL[] = [ne(accounts.id, viewer.id), eq(accounts.isDeleted, q.isDeleted)];
  // Accounts blocked by the administration are hidden from everyone but staff.
  if (!isStaff(viewer)) where.push(eq(accounts.isBlocked, false));
  // Who chose not to be found is not, by anyone but their friends, staff included (docs/adr/0125).
  where.push(findableBy(viewer.id, accounts.id, accounts.searchable));
  return where;
}

/** Place, age range and friends only: the filters beside the names. */
function filterConditions(q: AccountSearchQuery): SQL[] {
  const where: SQL[] = [...placeConditions(q)];
  if (q.ageFrom !== undefined) where.push(bornAtLeastYearsAgo(q.ageFrom));
  // Younger than ageTo + 1 years: born after today minus (ageTo + 1) years.
  if (q.ageTo !== undefined) {
    where.push(sql`${accounts.birthDate} > (${todayUtc} - make_interval(years => ${q.ageTo + 1}::int))::date`);
  }
  if (q.showFriends) where.push(eq(friendships.statusCode, "FRIEND"));
  return where;
}

function searchConditions(viewer: Viewer, q: AccountSearchQuery): SQL[] {
  const where = visibilityConditions(viewer, q);
  if (q.firstName) where.push(nameMatches(accounts.firstName, firstNameLower, q.firstName));
  if (q.lastName) where.push(nameMatches(accounts.lastName, lastNameLower, q.lastName));
  if (q.author) {
    for (const w of words(q.author)) {
      where.push(isShort(w) ? sql`(${startsWith(accounts.firstName, w)} or ${startsWith(accounts.lastName, w)})` : wordMatches(w));
    }
  }
  return [...where, ...filterConditions(q)];
}

/**
 * The order of a search. Names sort through accounts_listed_name_idx / accounts_listed_last_name_idx
 * (the tie-breakers follow the direction, so one index serves both by a forward or backward scan); typed
 * text of three letters or more ranks by similarity over its (trigram-indexed) matches.
 */
function searchOrder(q: AccountSearchQuery): SQL[] {
  const byName = (dir: "asc" | "desc") => {
    const d = dir === "desc" ? desc : asc;
    return [d(accounts.firstName), d(accounts.lastName), d(accounts.id)];
  };
  if (q.sort) {
    const dir = q.sort.dir === "desc" ? desc : asc;
    const tie = dir(accounts.id);
    switch (q.sort.field) {
      case "firstName":
        return byName(q.sort.dir);
      case "lastName":
        return [dir(accounts.lastName), dir(accounts.firstName), tie];
      case "birthDate":
        return [sql`${accounts.birthDate} ${sql.raw(q.sort.dir)} nulls last`, asc(accounts.id)];
      case "age": // older means an earlier birth date
        return [sql`${accounts.birthDate} ${sql.raw(q.sort.dir === "asc" ? "desc" : "asc")} nulls last`, asc(accounts.id)];
      case "lastOnlineTime":
        return [sql`${accounts.lastOnlineTime} ${sql.raw(q.sort.dir)} nulls last`, asc(accounts.id)];
      default:
        return [dir(accounts.id)];
    }
  }
  const typed = [q.author, q.firstName, q.lastName].filter((t): t is string => Boolean(t));
  const text = typed.join(" ");
  // Best matches first when a name was typed (pg_trgm similarity of the whole name).
  if (typed.some((t) => words(t).some((w) => !isShort(w)))) {
    // A match in the other script ranks by the similarity of the keys (docs/adr/0132).
    return [
      sql`greatest(similarity(${fullNameLower}, lower(${text})), similarity(coalesce(${accounts.nameLatin}, ''), ${nameLatin(text)})) desc`,
      asc(accounts.id),
    ];
  }
  // Only one or two letters: in the order of the prefix index the condition reads (its range, in order).
  if (q.lastName && !q.firstName && !q.author) return [sql`lower(${accounts.lastName}) collate "C"`, asc(accounts.id)];
  if (q.firstName && !q.author) return [sql`lower(${accounts.firstName}) collate "C"`, asc(accounts.id)];
  // A short author word matches the first OR the last name: both prefix ranges (a BitmapOr), sorted. No
  // index order here on purpose: walking one name's index while filtering on the other reads everything
  // when the other name's matches are rare.
  if (typed.length) return [sql`${fullNameLower} collate "C"`, asc(accounts.id)];
  return byName("asc");
}

/**
 * Beyond this many matches a search reports the planner's estimate instead of counting them: an exact
 * count of "everyone named А…" would read every match on every page (docs/adr/0046).
 */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * A search by names pages through its first 1,000 matches (docs/adr/0136): deeper pages are empty and
 * `totalPages` stops there, so no request walks tens of thousands of index entries to skip them.
 */
export const SEARCH_DEPTH_MAX = 1_000;

/** The two statements of a search page: the capped count and the page itself (exported for the plan tests). */
export function searchStatements(db: DbOrTx, viewer: Viewer, where: SQL | undefined, order: SQL[], page: number, size: number) {
  const matching = () => db.select({ one: sql`1` }).from(accounts).leftJoin(friendships, viewerFriendshipJoin(viewer.id)).where(where);
  return {
    matching,
    // Counted up to the cap: LIMIT stops the scan.
    capped: () => db.select({ capped: count() }).from(matching().limit(SEARCH_COUNT_CAP + 1).as("capped")),
    rows: () => rowsAt(page * size, size),
    rowsAt,
  };
  function rowsAt(offset: number, limit: number) {
    return db
      .select(accountDtoSelection)
      .from(accounts)
      .leftJoin(friendships, viewerFriendshipJoin(viewer.id))
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
  }
}

/** The planner's estimate of a search's matches (past the count's cap). */
async function estimateOf(db: DbOrTx, statements: ReturnType<typeof searchStatements>): Promise<number> {
  const plan = await db.execute<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(sql`explain (format json) ${statements.matching()}`);
  return Math.round(plan[0]["QUERY PLAN"][0].Plan["Plan Rows"]);
}

async function pageOfAccounts(
  db: DbOrTx,
  locale: Locale | undefined,
  viewer: Viewer,
  where: SQL | undefined,
  order: SQL[],
  page: number,
  size: number,
): Promise<Page<AccountDto>> {
  const statements = searchStatements(db, viewer, where, order, page, size);
  // The page does not depend on the count: both are sent at once (one wait instead of two). A page
  // past the end reads at most the capped matches and finds nothing.
  const [[{ capped }], rows] = await Promise.all([statements.capped(), statements.rows()]);
  let total = capped;
  if (capped > SEARCH_COUNT_CAP) {
    // Past the cap: the planner's estimate of the matches, never less than what paging has shown to exist.
    const estimate = await estimateOf(db, statements);
    total = Math.max(estimate, capped, page * size + rows.length + (rows.length === size ? 1 : 0));
  }
  const now = new Date();
  return pageOf(
    rows.map((r) => toAccountDto(r, { viewerId: viewer.id, now, locale })),
    total,
    page,
    size,
  );
}

/** The WHERE and ORDER BY of GET account/search for a viewer (exported for the plan tests). */
export function accountSearchParts(viewer: Viewer, input: unknown): { where: SQL | undefined; order: SQL[]; page: number; size: number } {
  const q = accountSearchQuery.parse(input);
  return { where: and(...searchConditions(viewer, q)), order: searchOrder(q), page: q.page, size: q.size };
}

/** The typed name words of a search (docs/adr/0136): each author word, and firstName / lastName whole. */
function nameTerms(q: AccountSearchQuery): Term[] {
  const terms: Term[] = [];
  if (q.firstName) terms.push(fieldTerm(q.firstName, FIRST));
  if (q.lastName) terms.push(fieldTerm(q.lastName, LAST));
  if (q.author) terms.push(...words(q.author).map(authorTerm));
  return terms;
}

/**
 * A term long enough to be found inside a name as well (the trigram match of ADR 46 and 132): four
 * characters or more, with three letters or digits in a row — trigrams are made of those only, so a word
 * like "I%%%%…" or "a-b-c-d" would make the trigram index match nearly everyone and recheck every row.
 */
const LONG = 4;
const isLong = (t: Term) => [...t.text].length >= LONG && /[\p{L}\p{N}]{3}/u.test(t.text);

/** ADR 46/132's match of a long term anywhere in the name (the second tier's condition). */
function insideMatches(t: Term): SQL {
  if (t.field === "firstName") return contains(firstNameLower, t.text);
  if (t.field === "lastName") return contains(lastNameLower, t.text);
  return wordMatches(t.text);
}

/**
 * Typed names, no sort asked (docs/adr/0136): first every account with a token beginning with each word
 * (the same script before the other, then by token and account: from the token index, LIMIT-bounded),
 * then — for words of four letters or more — those that hold a word only inside a name, by similarity.
 * The total is exact up to SEARCH_COUNT_CAP and an estimate past it (the second tier is then not counted).
 */
function namePlan(viewer: Viewer, q: AccountSearchQuery, terms: Term[]) {
  const listedOnly = !isStaff(viewer) && !q.isDeleted;
  const filters = filterConditions(q);
  // The listed, for everyone but staff: the token rows' own flags say so, no account row needs reading. With
  // filters on accounts, their visibility conditions stay too (the partial place indexes need them).
  const accountWhere = listedOnly && !filters.length ? undefined : and(...visibilityConditions(viewer, q), ...filters);
  return prefixPlan(viewer, terms, accountWhere, q.showFriends, listedOnly);
}

/** The page and count statements of a name search's first tier, or null without typed names (for plan tests and the bench). */
export function nameSearchStatements(viewer: Viewer, input: unknown): Record<string, SQL> | null {
  const q = accountSearchQuery.parse(input);
  const terms = q.sort ? [] : nameTerms(q);
  if (!terms.length) return null;
  const plan = namePlan(viewer, q, terms);
  const out: Record<string, SQL> = { page: prefixPageSql(plan, 0, (q.page + 1) * q.size), count: prefixCountSql(plan, SEARCH_COUNT_CAP, 1) };
  if (plan.driver.ranges.length > 1) {
    out["page, key range"] = prefixPageSql(plan, 1, (q.page + 1) * q.size);
    out["count, both ranges"] = prefixCountSql(plan, SEARCH_COUNT_CAP);
  }
  return out;
}

async function searchByNames(db: DbOrTx, locale: Locale | undefined, viewer: Viewer, q: AccountSearchQuery, terms: Term[]): Promise<Page<AccountDto>> {
  const plan = namePlan(viewer, q, terms);
  const offset = q.page * q.size;
  // Only the first SEARCH_DEPTH_MAX matches are paged: past them a page is empty, whatever the total says.
  const size = Math.max(0, Math.min(q.size, SEARCH_DEPTH_MAX - offset));
  const [count, page] = await Promise.all([
    prefixCount(db, plan, SEARCH_COUNT_CAP),
    size > 0 ? prefixPageIds(db, plan, offset, size) : { ids: [] as number[], seen: offset },
  ]);
  const { ids } = page;
  const rows = ids.length
    ? (await db.select(accountDtoSelection).from(accounts).leftJoin(friendships, viewerFriendshipJoin(viewer.id)).where(inArray(accounts.id, ids))).sort(
        (a, b) => ids.indexOf(a.id) - ids.indexOf(b.id),
      )
    : [];
  let total = count.accounts;
  if (terms.some(isLong)) {
    // The second tier: a long word inside a name, not at a token's beginning, by similarity (ADR 46, 132).
    const prefixes = terms.map((t) => termMatches(t, sql`${accounts.id}`));
    const where = and(
      ...visibilityConditions(viewer, q),
      ...filterConditions(q),
      ...terms.map((t, i) => (isLong(t) ? insideMatches(t) : prefixes[i])),
      not(and(...prefixes)!),
    );
    const statements = searchStatements(db, viewer, where, searchOrder(q), 0, q.size);
    // The page reaches past the first tier, which then holds exactly `seen` matches. The cut-off: the
    // first SEARCH_DEPTH_MAX of these matches the trigram index yields are ranked, not all of them.
    if (rows.length < size) {
      const first = db.select({ id: accounts.id }).from(accounts).leftJoin(friendships, viewerFriendshipJoin(viewer.id)).where(where).limit(SEARCH_DEPTH_MAX);
      const ranked = searchStatements(db, viewer, sql`${accounts.id} in (${first})`, searchOrder(q), 0, q.size);
      rows.push(...(await ranked.rowsAt(Math.max(0, offset - page.seen), size - rows.length)));
    }
    if (!count.over) {
      const [{ capped }] = await statements.capped();
      total += capped > SEARCH_COUNT_CAP ? Math.max(capped, await estimateOf(db, statements)) : capped;
    }
  }
  if (count.over) {
    const estimate = await prefixEstimate(db, plan, count);
    // Never less than what is known to exist: the cap passed, the matches counted, what paging has shown.
    const shown = rows.length ? offset + rows.length + (rows.length === q.size ? 1 : 0) : 0;
    total = Math.max(estimate, count.walkedOut ? count.accounts : SEARCH_COUNT_CAP + 1, shown);
  }
  const now = new Date();
  const result = pageOf(
    rows.map((r) => toAccountDto(r, { viewerId: viewer.id, now, locale })),
    total,
    q.page,
    q.size,
  );
  // The pages there are: no further than the paged depth.
  return { ...result, totalPages: Math.min(result.totalPages, Math.ceil(SEARCH_DEPTH_MAX / q.size)) };
}

/**
 * GET account/search — people by name (the beginnings of names' words in either script, and longer
 * words anywhere in a name; any case), age range, country and city; deleted accounts only for staff
 * asking isDeleted=true; never the viewer.
 */
export async function searchAccounts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AccountDto>> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const q = accountSearchQuery.parse(input);
  if (q.isDeleted && !isStaff(viewer)) throw new ForbiddenError("accountErrors.deletedSearchForbidden");
  const db = ctx.tx ?? ctx.db;
  // An address (`@user@server`, `user@server`) or a profile's URL (issue 43): that one person, ours or of
  // another server (looked up there, and made an account of ours); Fedify loads only for such a search.
  if (q.author && !q.firstName && !q.lastName && looksLikeAddress(q.author)) {
    const { findPersonByAddress } = await import("@/lib/server/federation/federation");
    const found = await findPersonByAddress(q.author);
    const listed = and(eq(accounts.isDeleted, false), eq(accounts.isBlocked, false));
    // One of ours is found as people search finds them (not when they keep out of search); a remote person is never listed by name.
    const where = !found ? sql`false` : found.handle ? and(eq(accounts.id, found.accountId), listed) : and(eq(accounts.id, found.accountId), listed, findableBy(viewer.id, accounts.id, accounts.searchable));
    const page = await pageOfAccounts(db, ctx.locale, viewer, where, [asc(accounts.id)], q.page, q.size);
    if (found?.handle) for (const dto of page.content) dto.fediverseAddress = found.handle;
    return page;
  }
  // A sort asked for orders by that field (ADR 46's name indexes); otherwise typed names rank by the token index.
  const terms = q.sort ? [] : nameTerms(q);
  if (terms.length) return searchByNames(db, ctx.locale, viewer, q, terms);
  return pageOfAccounts(db, ctx.locale, viewer, and(...searchConditions(viewer, q)), searchOrder(q), q.page, q.size);
}

/**
 * GET account/search/statusCode — the viewer's relations of one status (friends, requests …),
 * optionally narrowed by a part of the name; most recently changed first, as the friends tabs.
 */
export async function searchAccountsByStatusCode({
  ctx,
  input,
}: {
  ctx: ServiceCtx;
  input: unknown;
}): Promise<Page<AccountDto>> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const q = accountStatusSearchQuery.parse(input);
  const where: SQL[] = [eq(friendships.statusCode, q.statusCode), eq(accounts.isDeleted, false)];
  if (q.firstName) for (const w of words(q.firstName)) where.push(wordMatches(w));
  const order = [desc(friendships.updatedAt), desc(friendships.friendId)];
  return pageOfAccounts(ctx.tx ?? ctx.db, ctx.locale, viewer, and(...where), order, q.page, q.size);
}
