CREATE TABLE "account_search_tokens" (
	"account_id" bigint NOT NULL,
	"token" text NOT NULL,
	"kinds" smallint NOT NULL,
	"listed" boolean NOT NULL,
	"searchable" boolean NOT NULL,
	CONSTRAINT "account_search_tokens_account_id_token_pk" PRIMARY KEY("account_id","token")
);
--> statement-breakpoint
ALTER TABLE "account_search_tokens" ADD CONSTRAINT "account_search_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_search_tokens_prefix_idx" ON "account_search_tokens" USING btree ("token" collate "C","account_id","kinds","listed","searchable");--> statement-breakpoint
-- People search by the beginning of a name (docs/adr/0136). The tokens of one name: the whole lowered first
-- and last names, their parts (split at spaces, hyphens, dashes, apostrophes, dots, commas, underscores,
-- brackets and slashes) and the words of the cross-script key; kinds: 1 first name, 2 last name, 4 key.
CREATE FUNCTION "account_name_tokens"(first_name text, last_name text, name_latin text)
RETURNS TABLE (token text, kinds smallint) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select left(tok, 200), bit_or(kind)::smallint
  from (
    select lower(first_name), 1
    union all select lower(last_name), 2
    union all select regexp_split_to_table(lower(first_name), '[[:space:]''’.,_()/‐–—-]+'), 1
    union all select regexp_split_to_table(lower(last_name), '[[:space:]''’.,_()/‐–—-]+'), 2
    union all select regexp_split_to_table(coalesce(name_latin, ''), ' '), 4
  ) s(tok, kind)
  where tok <> ''
  group by left(tok, 200)
$$;--> statement-breakpoint
-- New accounts, one statement at a time (registration, the operators' script, bulk loads alike).
CREATE FUNCTION "account_search_tokens_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_search_tokens (account_id, token, kinds, listed, searchable)
  SELECT n.id, t.token, t.kinds, NOT n.is_deleted AND NOT n.is_blocked, n.searchable
  FROM new_accounts n, account_name_tokens(n.first_name, n.last_name, n.name_latin) t;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "account_search_tokens_insert" AFTER INSERT ON "accounts"
  REFERENCING NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION account_search_tokens_on_insert();--> statement-breakpoint
-- A changed name, key, deletion, block or searchable flag rewrites that account's rows (presence and every
-- other update of accounts do not fire it).
CREATE FUNCTION "account_search_tokens_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM account_search_tokens WHERE account_id = NEW.id;
  INSERT INTO account_search_tokens (account_id, token, kinds, listed, searchable)
  SELECT NEW.id, t.token, t.kinds, NOT NEW.is_deleted AND NOT NEW.is_blocked, NEW.searchable
  FROM account_name_tokens(NEW.first_name, NEW.last_name, NEW.name_latin) t;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "account_search_tokens_update" AFTER UPDATE OF first_name, last_name, name_latin, is_deleted, is_blocked, searchable ON "accounts"
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
    OR OLD.name_latin IS DISTINCT FROM NEW.name_latin OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted
    OR OLD.is_blocked IS DISTINCT FROM NEW.is_blocked OR OLD.searchable IS DISTINCT FROM NEW.searchable)
  EXECUTE FUNCTION account_search_tokens_on_update();--> statement-breakpoint
-- Every account saved before: its tokens now (set-based); names whose cross-script key is still missing get
-- it from db/name-latin-backfill.ts after the migrations (the marker of docs/adr/0132, made again), and the
-- update trigger above adds the key's words.
INSERT INTO "account_search_tokens" (account_id, token, kinds, listed, searchable)
SELECT a.id, t.token, t.kinds, NOT a.is_deleted AND NOT a.is_blocked, a.searchable
FROM accounts a, account_name_tokens(a.first_name, a.last_name, a.name_latin) t;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "name_latin_backfill_pending" ();
--> statement-breakpoint
-- Statistics for the ranges at once (the planner reads them to walk the index in order, docs/adr/0136).
ANALYZE "account_search_tokens";
