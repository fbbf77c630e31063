ALTER TYPE "public"."notification_type" ADD VALUE 'REPOST';--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_repost" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "repost_of_id" bigint;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_repost_of_id_posts_id_fk" FOREIGN KEY ("repost_of_id") REFERENCES "public"."posts"("id") ON DELETE no action ON UPDATE no action NOT VALID;
-- NOT VALID: every existing row is null, so there is nothing to check, and no scan of a million posts runs under the
-- constraint's lock; new rows are checked as usual (docs/adr/0130).