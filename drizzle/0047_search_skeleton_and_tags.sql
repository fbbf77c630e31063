CREATE INDEX "tags_search_idx" ON "tags" USING gin ((to_tsvector('russian'::regconfig, "name") || to_tsvector('english'::regconfig, "name")));--> statement-breakpoint
-- The cross-script key of every name is made again (issue 40 item 17, docs/adr/0166): lib/server/search/name-latin.ts
-- now folds more spellings to one (a/e/э, ё/yo/io/e, ts/tz/c, -yev-). db/name-latin-backfill.ts recomputes
-- every key in batches of 1,000 right after the migrations and drops this marker; the token trigger of
-- migration 0038 rewrites the tokens of each key that changed. Until then a name is found by its old key.
CREATE TABLE IF NOT EXISTS "name_latin_backfill_pending" ();
