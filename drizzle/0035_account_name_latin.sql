ALTER TABLE "accounts" ADD COLUMN "name_latin" text;--> statement-breakpoint
CREATE INDEX "accounts_name_latin_trgm_idx" ON "accounts" USING gin ("name_latin" gin_trgm_ops);--> statement-breakpoint
-- Existing names get their cross-script key from code (the npm transliteration, lib/server/search/name-latin.ts):
-- db/name-latin-backfill.ts fills them in batches of 1,000 right after the migrations run and drops this marker
-- (docs/adr/0132). Until then an account not yet reached is found as before, by its name as written.
CREATE TABLE "name_latin_backfill_pending" ();
