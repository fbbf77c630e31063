ALTER TABLE "accounts" ADD COLUMN "country_code" char(2);--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "city_id" integer;--> statement-breakpoint
CREATE INDEX "accounts_listed_place_idx" ON "accounts" USING btree ("country_code","city_id") WHERE not "accounts"."is_deleted" and not "accounts"."is_blocked";--> statement-breakpoint
CREATE INDEX "accounts_listed_city_idx" ON "accounts" USING btree ("city_id") WHERE not "accounts"."is_deleted" and not "accounts"."is_blocked";--> statement-breakpoint
CREATE INDEX "accounts_country_trgm_idx" ON "accounts" USING gin (lower("country") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_city_trgm_idx" ON "accounts" USING gin (lower("city") gin_trgm_ops);--> statement-breakpoint
-- Existing places are titles in either language: db/place-backfill.ts resolves them to codes and GeoNames ids
-- with the same rules as PUT account/me, right after the migrations run, and drops this marker (docs/adr/0044).
CREATE TABLE "place_backfill_pending" ();
