DROP INDEX "posts_feed_idx";--> statement-breakpoint
DROP INDEX "posts_author_feed_idx";--> statement-breakpoint
CREATE INDEX "accounts_hidden_idx" ON "accounts" USING btree ("id") WHERE "accounts"."is_deleted" or "accounts"."is_blocked";--> statement-breakpoint
CREATE INDEX "posts_feed_idx" ON "posts" USING btree ("publish_date" DESC NULLS LAST,"id" DESC NULLS LAST,"author_id","is_blocked") WHERE not "posts"."is_deleted";--> statement-breakpoint
CREATE INDEX "posts_author_feed_idx" ON "posts" USING btree ("author_id","publish_date" DESC NULLS LAST,"id" DESC NULLS LAST,"is_blocked") WHERE not "posts"."is_deleted";