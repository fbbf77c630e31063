import "server-only";
import { is, Param, Placeholder, type Column, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import type { DbOrTx } from "./client";

// Statements of the hot read paths with their SQL text built once (docs/adr/0153). drizzle's db.execute
// turns its sql`` template into text and parameters on every call (walking the template's chunks, an
// entity check per chunk): for a feed page's statements that was ~0.1 ms of the request's CPU, for a
// text that never changes but for the values. Here the template is written once with sql.placeholder()
// for the values, turned into text once, and each call only fills the values in and runs the text as
// postgres.js's cached prepared statement on the same client drizzle would have used (a transaction's
// own connection inside one). Rows come back exactly as db.execute returns them.

const dialect = new PgDialect({ casing: "snake_case" });

/** Where each parameter of the text comes from: a value fixed in the template, or a placeholder's name. */
type Source = { value: unknown } | { name: string };

export type Statement<R, V extends Record<string, unknown>> = {
  /** The statement's text ($1, $2, …), built once. */
  readonly text: string;
  /** Runs it with `values` for its placeholders. */
  run(db: DbOrTx, values: V): Promise<R[]>;
};

/** The postgres.js client behind a drizzle database or transaction (a transaction's holds its connection). */
function clientOf(db: DbOrTx): postgres.Sql {
  return (db as unknown as { _: { session: { client: postgres.Sql } } })._.session.client;
}

/**
 * A statement from `query`, whose variable parts are sql.placeholder(name)s: its text is built here, once.
 * Values fixed in the template stay as parameters. A placeholder missing from a call's values is an error,
 * never a null sent in its place.
 */
export function statement<R, V extends Record<string, unknown> = Record<string, unknown>>(query: SQL): Statement<R, V> {
  const built = dialect.sqlToQuery(query);
  const { text, params } = onePerPlaceholder(built.sql, built.params);
  const args = argumentsOf<V>(params);
  return {
    text,
    run(db, values) {
      return clientOf(db).unsafe(text, args(values), { prepare: true }) as unknown as Promise<R[]>;
    },
  };
}

/**
 * The text with one parameter per placeholder, however often the template names it (drizzle makes one per
 * occurrence: the feed page's viewer was 17 of them), renumbered outside quotes and comments: each parameter
 * is a value postgres.js serialises and Postgres binds on every call.
 */
export function onePerPlaceholder(text: string, params: unknown[]): { text: string; params: unknown[] } {
  const kept: unknown[] = [];
  const byName = new Map<string, number>();
  const to = params.map((p) => {
    if (is(p, Placeholder)) {
      const n = byName.get(p.name);
      if (n !== undefined) return n;
      byName.set(p.name, kept.push(p));
      return kept.length;
    }
    return kept.push(p);
  });
  let out = "";
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    const skipTo = (end: number) => {
      const stop = end < 0 ? text.length : end;
      out += text.slice(i, stop);
      i = stop;
    };
    if (c === "'" || c === '"') skipTo(text.indexOf(c, i + 1) + 1 || text.length);
    else if (c === "-" && text[i + 1] === "-") skipTo(text.indexOf("\n", i));
    else if (c === "/" && text[i + 1] === "*") skipTo(text.indexOf("*/", i) + 2 || text.length);
    else if (c === "$" && /[0-9]/.test(text[i + 1] ?? "")) {
      let j = i + 1;
      while (/[0-9]/.test(text[j] ?? "")) j++;
      out += `$${to[Number(text.slice(i + 1, j)) - 1]}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, params: kept };
}

/** The parameters of a text from a call's values, in order: where each comes from is worked out once. */
function argumentsOf<V extends Record<string, unknown>>(params: unknown[]): (values: V) => postgres.ParameterOrJSON<never>[] {
  const sources: Source[] = params.map((p) => {
    if (is(p, Placeholder)) return { name: p.name };
    if (is(p, Param)) throw new Error("statement(): a column-encoded parameter has no place in a statement built once");
    return { value: p };
  });
  const names = [...new Set(sources.flatMap((s) => ("name" in s ? [s.name] : [])))];
  return (values) => {
    for (const name of names) if (values[name] === undefined) throw new Error(`statement(): no value for placeholder "${name}"`);
    return sources.map((s) => ("name" in s ? values[s.name] : s.value)) as postgres.ParameterOrJSON<never>[];
  };
}

/**
 * A drizzle select of plain columns (`fields`: each a column, no nested objects, no left-joined table
 * whose all-null row drizzle would fold into null) as a statement built once: its text is drizzle's (built
 * on the first call), its rows are mapped as drizzle maps them (each column's own decoder, null as null),
 * without drizzle's per-call work (filling placeholders and mapping each field through entity checks).
 */
export function selectStatement<R, V extends Record<string, unknown>>(
  build: (db: DbOrTx) => { toSQL(): { sql: string; params: unknown[] } },
  fields: Record<string, Column>,
): Statement<R, V> {
  const columns = Object.entries(fields);
  let compiled: { text: string; args: (values: V) => postgres.ParameterOrJSON<never>[] } | undefined;
  return {
    get text() {
      if (!compiled) throw new Error("selectStatement(): the text is built on the first call");
      return compiled.text;
    },
    async run(db, values) {
      if (!compiled) {
        const { sql: text, params } = build(db).toSQL();
        compiled = { text, args: argumentsOf<V>(params) };
      }
      const rows = (await clientOf(db).unsafe(compiled.text, compiled.args(values), { prepare: true }).values()) as unknown as unknown[][];
      return rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) {
          const [key, column] = columns[i];
          const raw = row[i];
          out[key] = raw === null ? null : column.mapFromDriverValue(raw);
        }
        return out as R;
      });
    },
  };
}

/**
 * Statements of one shape kept by a key (a page size, a number of ids), at most `max` of them: past it the
 * oldest goes. For texts that differ by a few literals the planner needs to see (docs/adr/0104, 0137).
 */
export function statementsBy<K, R, V extends Record<string, unknown>>(build: (key: K) => SQL, max = 256): (key: K) => Statement<R, V> {
  const kept = new Map<K, Statement<R, V>>();
  return (key) => {
    let s = kept.get(key);
    if (!s) {
      if (kept.size >= max) kept.delete(kept.keys().next().value as K);
      s = statement<R, V>(build(key));
      kept.set(key, s);
    }
    return s;
  };
}
