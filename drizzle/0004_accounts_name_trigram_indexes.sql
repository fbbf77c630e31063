CREATE INDEX "accounts_first_name_trgm_idx" ON "accounts" USING gin (lower("first_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_last_name_trgm_idx" ON "accounts" USING gin (lower("last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_full_name_trgm_idx" ON "accounts" USING gin (lower("first_name" || ' ' || "last_name") gin_trgm_ops);