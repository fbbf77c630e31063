import "server-only";
import { and, asc, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts, friendships } from "@/db/schema";
import type { Viewer } from "@/lib/server/auth/viewer";
import { countrySpellings, findCountry } from "@/lib/server/geo/countries";
import { ForbiddenError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  accountSearchQuery,
  accountStatusSearchQuery,
  type AccountSearchQuery,
} from "@/lib/validation/account";
import { requireViewer, type ServiceCtx } from "../context";
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

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean).slice(0, 5);
}

function countryCondition(text: string): SQL {
  const code = findCountry(text);
  if (!code) return contains(sql`lower(${accounts.country})`, text);
  const spellings = countrySpellings(code).map((s) => s.toLowerCase());
  return sql`lower(${accounts.country}) in (${sql.join(spellings.map((s) => sql`${s}`), sql`, `)})`;
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

function searchConditions(viewer: Viewer, q: AccountSearchQuery): SQL[] {
  const where: SQL[] = [ne(accounts.id, viewer.id), eq(accounts.isDeleted, q.isDeleted)];
  // Accounts blocked by the administration are hidden from everyone but staff.
  if (!isStaff(viewer)) where.push(eq(accounts.isBlocked, false));
  if (q.firstName) where.push(contains(firstNameLower, q.firstName));
  if (q.lastName) where.push(contains(lastNameLower, q.lastName));
  if (q.author) for (const w of words(q.author)) where.push(contains(fullNameLower, w));
  if (q.country) where.push(countryCondition(q.country));
  if (q.city) where.push(contains(sql`lower(${accounts.city})`, q.city));
  if (q.ageFrom !== undefined) where.push(bornAtLeastYearsAgo(q.ageFrom));
  // Younger than ageTo + 1 years: born after today minus (ageTo + 1) years.
  if (q.ageTo !== undefined) {
    where.push(sql`${accounts.birthDate} > (${todayUtc} - make_interval(years => ${q.ageTo + 1}::int))::date`);
  }
  if (q.showFriends) where.push(eq(friendships.statusCode, "FRIEND"));
  return where;
}

function searchOrder(q: AccountSearchQuery): SQL[] {
  const tie = asc(accounts.id);
  if (q.sort) {
    const dir = q.sort.dir === "desc" ? desc : asc;
    switch (q.sort.field) {
      case "firstName":
        return [dir(accounts.firstName), asc(accounts.lastName), tie];
      case "lastName":
        return [dir(accounts.lastName), asc(accounts.firstName), tie];
      case "birthDate":
        return [sql`${accounts.birthDate} ${sql.raw(q.sort.dir)} nulls last`, tie];
      case "age": // older means an earlier birth date
        return [sql`${accounts.birthDate} ${sql.raw(q.sort.dir === "asc" ? "desc" : "asc")} nulls last`, tie];
      case "lastOnlineTime":
        return [sql`${accounts.lastOnlineTime} ${sql.raw(q.sort.dir)} nulls last`, tie];
      default:
        return [dir(accounts.id)];
    }
  }
  const text = [q.author, q.firstName, q.lastName].filter(Boolean).join(" ");
  // Best matches first when a name was typed (pg_trgm similarity of the whole name), else by name.
  if (text) return [sql`similarity(${fullNameLower}, lower(${text})) desc`, tie];
  return [asc(accounts.firstName), asc(accounts.lastName), tie];
}

async function pageOfAccounts(
  db: DbOrTx,
  viewer: Viewer,
  where: SQL | undefined,
  order: SQL[],
  page: number,
  size: number,
): Promise<Page<AccountDto>> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(accounts)
    .leftJoin(friendships, viewerFriendshipJoin(viewer.id))
    .where(where);
  const rows =
    total > page * size
      ? await db
          .select(accountDtoSelection)
          .from(accounts)
          .leftJoin(friendships, viewerFriendshipJoin(viewer.id))
          .where(where)
          .orderBy(...order)
          .limit(size)
          .offset(page * size)
      : [];
  const now = new Date();
  return pageOf(
    rows.map((r) => toAccountDto(r, { viewerId: viewer.id, now })),
    total,
    page,
    size,
  );
}

/**
 * GET account/search — people by name (parts of words, any case, Russian or English), age range,
 * country and city; deleted accounts only for staff asking isDeleted=true; never the viewer.
 */
export async function searchAccounts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AccountDto>> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const q = accountSearchQuery.parse(input);
  if (q.isDeleted && !isStaff(viewer)) throw new ForbiddenError("accountErrors.deletedSearchForbidden");
  return pageOfAccounts(ctx.tx ?? ctx.db, viewer, and(...searchConditions(viewer, q)), searchOrder(q), q.page, q.size);
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
  if (q.firstName) for (const w of words(q.firstName)) where.push(contains(fullNameLower, w));
  const order = [desc(friendships.updatedAt), desc(friendships.friendId)];
  return pageOfAccounts(ctx.tx ?? ctx.db, viewer, and(...where), order, q.page, q.size);
}
