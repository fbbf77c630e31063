import "server-only";
import { and, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { nameLatin } from "@/lib/server/search/name-latin";
import { findableBy } from "../privacy/rules";

/**
 * People search from the name-token index (docs/adr/0136). Every typed name word (an `author` word, or
 * the whole `firstName` / `lastName` text) matches the BEGINNING of a token of the name — the whole
 * first or last name, a part of it split at spaces or hyphens, or a word of the cross-script key — as a
 * range of account_search_tokens_prefix_idx (`token collate "C"` between the word and the next string
 * after all its continuations): read in (token, account) order, so LIMIT stops after the page, and
 * counted up to a cap from the index alone. Words of four letters or more are also found in the middle
 * of a name (ADR 46's trigram match); those matches rank after all the prefix matches (the caller's
 * second tier).
 */

/** Kinds of a token (the `kinds` bit mask written by migration 0038's trigger). */
export const FIRST = 1;
export const LAST = 2;
export const LATIN = 4;

/** The range of one typed text: tokens from `lo` (inclusive) to `hi` (exclusive; null: no end), of these kinds. */
type Range = { lo: string; hi: string | null; kinds: number };

/**
 * One typed name word. `ranges[0]` is the word as typed (the names in its script), `ranges[1]` (author
 * words) its cross-script key among the key words: a match there ranks after the same-script matches.
 */
export type Term = { text: string; field: "author" | "firstName" | "lastName"; ranges: Range[] };

/**
 * The least string greater than every string that starts with `prefix`, in "C" order (UTF-8 bytes, which
 * is code point order): the last code point plus one (past the surrogates; a last U+10FFFF is dropped
 * and the one before it raised). Null when no such string exists (the prefix was only U+10FFFF).
 */
export function prefixEnd(prefix: string): string | null {
  const cps = [...prefix].map((c) => c.codePointAt(0)!);
  while (cps.length) {
    const last = cps.pop()! + 1;
    if (last > 0x10ffff) continue;
    cps.push(last === 0xd800 ? 0xe000 : last);
    return String.fromCodePoint(...cps);
  }
  return null;
}

/** Tokens are stored at most 200 characters long (migration 0038): a longer word is compared on those. */
const TOKEN_MAX = 200;

function range(text: string, kinds: number): Range {
  const lo = [...text].slice(0, TOKEN_MAX).join("");
  return { lo, hi: prefixEnd(lo), kinds };
}

/** An author word: the names as typed (first or last), then the key words of any name by its key. */
export function authorTerm(word: string): Term {
  const ranges = [range(word.toLowerCase(), FIRST | LAST)];
  // As in ADR 132, punctuation is no part of a key ("%gleb%" is the word gleb), but a short key from a word
  // with symbols in it ("%qz%") would find far more than was typed: letters only, or a key of three or more.
  // A word whose key falls apart in several ("g_eb", "Петров-Водкин") has none here (the second tier's
  // trigram match of the whole key still finds such names).
  const key = nameLatin(word);
  if (key && !key.includes(" ") && (key.length >= 3 || /^\p{L}+$/u.test(word))) ranges.push(range(key, LATIN));
  return { text: word, field: "author", ranges };
}

/** A firstName / lastName text, whole (a first name may hold a space): that name only, as typed. */
export function fieldTerm(text: string, kinds: typeof FIRST | typeof LAST): Term {
  return { text, field: kinds === FIRST ? "firstName" : "lastName", ranges: [range(text.toLowerCase(), kinds)] };
}

/** `token` of alias `t` in range `r` (the index's expression, so the planner reads a range of it). */
function inRange(t: SQL, r: Range): SQL {
  const token = sql`${t}.token collate "C"`;
  const end = r.hi === null ? sql`` : sql` and ${token} < ${r.hi}`;
  return sql`(${token} >= ${r.lo}${end} and (${t}.kinds & ${r.kinds}) <> 0)`;
}

/** Whether the account `id` has a token in any of the term's ranges (a probe of the tokens' primary key). */
export function termMatches(term: Term, id: SQL): SQL {
  const x = sql.raw("x");
  return sql`exists (select 1 from account_search_tokens x where x.account_id = ${id} and (${sql.join(
    term.ranges.map((r) => inRange(x, r)),
    sql` or `,
  )}))`;
}

/** The length of a term in letters: the longest text drives (its range is the narrowest). */
const letters = (t: Term) => [...t.text].length;

export type PrefixPlan = {
  terms: Term[];
  /** The term whose ranges are read in order; the others are probed per candidate. */
  driver: Term;
  /** Conditions on "accounts" beyond the names (place, age, friends only, staff's deleted), or none. */
  accountWhere: SQL | undefined;
  /** Whether "friendships" must be joined (showFriends). */
  needsFriendship: boolean;
  viewer: Viewer;
  /** Non-staff searching the listed: the token rows' own flags decide, no account row is read. */
  listedOnly: boolean;
};

export function prefixPlan(viewer: Viewer, terms: Term[], accountWhere: SQL | undefined, needsFriendship: boolean, listedOnly: boolean): PrefixPlan {
  const driver = terms.reduce((a, b) => (letters(b) > letters(a) ? b : a));
  return { terms, driver, accountWhere, needsFriendship, viewer, listedOnly };
}

/**
 * The candidates of one range of the driving term, in index order: the tokens in it whose account passes
 * every other condition. `distinct` keeps only each account's first token in the range (an account with
 * "Иван" and "Иванов" is one person), and for the key range only accounts the same-script range did
 * not find already.
 */
/** The token rows of one range that the listing may show (the rows' own flags, for everyone but staff). */
function rangeWhere(p: PrefixPlan, index: number): SQL[] {
  const t = sql.raw("t");
  const where: SQL[] = [inRange(t, p.driver.ranges[index])];
  if (p.listedOnly) {
    where.push(sql`t.listed`, sql`t.account_id <> ${p.viewer.id}`, findableBy(p.viewer.id, sql`t.account_id`, sql`t.searchable`));
  }
  return where;
}

/** Whether candidates need more than their token row: other words probed, or account columns filtered. */
const filtered = (p: PrefixPlan) => p.terms.length > 1 || p.accountWhere !== undefined;

function branch(p: PrefixPlan, index: number, opts: { distinct: boolean; limit: number; walk?: number }): SQL {
  const r = p.driver.ranges[index];
  const own = rangeWhere(p, index);
  const where: SQL[] = [];
  if (opts.distinct) {
    const token = sql`d.token collate "C"`;
    where.push(sql`not exists (select 1 from account_search_tokens d where d.account_id = t.account_id
      and ${token} >= ${r.lo} and ${token} < t.token collate "C" and (d.kinds & ${r.kinds}) <> 0)`);
    for (const earlier of p.driver.ranges.slice(0, index)) {
      where.push(sql`not exists (select 1 from account_search_tokens e where e.account_id = t.account_id and ${inRange(sql.raw("e"), earlier)})`);
    }
  }
  for (const other of p.terms) if (other !== p.driver) where.push(termMatches(other, sql`t.account_id`));
  const joins: SQL[] = [];
  if (p.accountWhere) {
    joins.push(sql` join accounts on accounts.id = t.account_id`);
    if (p.needsFriendship) joins.push(sql` left join friendships on friendships.account_id = ${p.viewer.id} and friendships.friend_id = accounts.id`);
    where.push(p.accountWhere);
  }
  // A count past filters reads at most `walk` rows of the range (then the total is an estimate).
  const from =
    opts.walk !== undefined && filtered(p)
      ? sql`(select * from account_search_tokens t where ${and(...own)} order by t.token collate "C", t.account_id limit ${opts.walk}) t`
      : sql`account_search_tokens t`;
  if (!(opts.walk !== undefined && filtered(p))) where.unshift(...own);
  return sql`(select t.account_id as id, t.token collate "C" as token, ${index}::int as src
    from ${from}${sql.join(joins, sql``)}
    where ${and(...where)}
    order by t.token collate "C", t.account_id
    limit ${opts.limit})`;
}

/** How far a count past filters walks a range before it estimates instead (docs/adr/0136). */
export const COUNT_WALK = 2_000;

/** One range's candidates for a page: the first `limit` in rank order. */
export function prefixPageSql(p: PrefixPlan, index: number, limit: number): SQL {
  return sql`select id from ${branch(p, index, { distinct: true, limit })} b order by token, id`;
}

/**
 * The ids of one page of the prefix matches, in rank order: the same script's range first, then the key's
 * (only when the page reaches past the first: each range is its own LIMIT-bounded statement, so a key range
 * of accounts already found is never walked for a page the first range fills).
 */
export async function prefixPageIds(db: DbOrTx, p: PrefixPlan, offset: number, size: number): Promise<{ ids: number[]; seen: number }> {
  const ids: number[] = [];
  let skip = offset;
  let seen = 0;
  for (let i = 0; i < p.driver.ranges.length && ids.length < size; i++) {
    const rows = await db.execute<{ id: string }>(prefixPageSql(p, i, skip + size - ids.length));
    ids.push(...rows.slice(skip).map((r) => Number(r.id)));
    seen += rows.length;
    skip = Math.max(0, skip - rows.length);
  }
  // `seen`: the matches up to the page's end; when the page is short, every match there is.
  return { ids, seen };
}

/**
 * Up to `cap` + 1 matching token rows of each range (no de-duplication: cheaper to count distinct ids
 * afterwards). When no range reached the cap, every match was read and `accounts` is exact.
 */
export function prefixCountSql(p: PrefixPlan, cap: number, ranges = p.driver.ranges.length): SQL {
  const indexes = p.driver.ranges.slice(0, ranges).map((_, i) => i);
  const parts = indexes.map((i) => branch(p, i, { distinct: false, limit: cap + 1, walk: COUNT_WALK }));
  // Past filters: whether a range holds more rows than the walk read (an index-only count, bounded too).
  const walked = filtered(p)
    ? sql`greatest(${sql.join(
        indexes.map((i) => sql`(select count(*) from (select 1 from account_search_tokens t where ${and(...rangeWhere(p, i))} limit ${COUNT_WALK}) w)`),
        sql`, `,
      )}, 0)::int`
    : sql`0`;
  return sql`select count(distinct id)::int as accounts, count(*)::int as rows, coalesce(max(n), 0)::int as most, ${walked} as walked
    from (select id, count(*) over (partition by src) as n from (${sql.join(parts, sql` union all `)}) m) c`;
}

/** The first range alone first: past the cap there, the key's range is not counted at all. */
export type PrefixCount = { accounts: number; rows: number; over: boolean; walkedOut: boolean };

export async function prefixCount(db: DbOrTx, p: PrefixPlan, cap: number): Promise<PrefixCount> {
  const count = async (ranges: number) => {
    const [row] = await db.execute<{ accounts: number; rows: number; most: number; walked: number }>(prefixCountSql(p, cap, ranges));
    const walkedOut = row.most <= cap && row.walked >= COUNT_WALK;
    return { accounts: row.accounts, rows: row.rows, over: row.most > cap || walkedOut, walkedOut };
  };
  const first = await count(1);
  return first.over || p.driver.ranges.length === 1 ? first : count(p.driver.ranges.length);
}

/**
 * Past the cap: the planner's estimate of the token rows in the driving ranges (the index's statistics,
 * one short plan), scaled by the share of distinct accounts among the rows counted. When the count stopped
 * at COUNT_WALK rows behind filters, the matches it found there are scaled to the whole range instead.
 */
export async function prefixEstimate(db: DbOrTx, p: PrefixPlan, sample: PrefixCount): Promise<number> {
  if (sample.walkedOut) {
    let rows = 0;
    for (let i = 0; i < p.driver.ranges.length; i++) {
      const plan = await db.execute<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
        sql`explain (format json) select 1 from account_search_tokens t where ${and(...rangeWhere(p, i))}`,
      );
      rows += plan[0]["QUERY PLAN"][0].Plan["Plan Rows"];
    }
    return Math.round((sample.accounts * rows) / (COUNT_WALK * p.driver.ranges.length));
  }
  const parts = p.driver.ranges.map((_, i) => branch(p, i, { distinct: false, limit: 1_000_000_000 }));
  const plan = await db.execute<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
    sql`explain (format json) select id from (${sql.join(parts, sql` union all `)}) m`,
  );
  const rows = plan[0]["QUERY PLAN"][0].Plan["Plan Rows"];
  return Math.round(rows * (sample.rows > 0 ? sample.accounts / sample.rows : 1));
}
