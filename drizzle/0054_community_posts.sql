DROP INDEX "posts_feed_idx";--> statement-breakpoint
DROP INDEX "posts_author_feed_idx";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "community_id" bigint;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "as_community" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_community_idx" ON "posts" USING btree ("community_id","publish_date" DESC NULLS LAST,"id" DESC NULLS LAST,"is_blocked","author_id") WHERE not "posts"."is_deleted" and "posts"."community_id" is not null;--> statement-breakpoint
CREATE INDEX "posts_feed_idx" ON "posts" USING btree ("publish_date" DESC NULLS LAST,"id" DESC NULLS LAST,"author_id","is_blocked") WHERE not "posts"."is_deleted" and "posts"."community_id" is null;--> statement-breakpoint
CREATE INDEX "posts_author_feed_idx" ON "posts" USING btree ("author_id","publish_date" DESC NULLS LAST,"id" DESC NULLS LAST,"is_blocked","community_id") WHERE not "posts"."is_deleted";--> statement-breakpoint
-- A community's posts reach readers through the community, never through the author's followers: the home
-- timeline's change capture (0041) leaves them out.
CREATE OR REPLACE FUNCTION home_timeline_post_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.community_id IS NULL AND EXISTS (SELECT 1 FROM home_timeline_state) THEN
    INSERT INTO home_timeline_pending (post_id, author_id, publish_date) VALUES (NEW.id, NEW.author_id, NEW.publish_date)
    ON CONFLICT (post_id) DO UPDATE SET publish_date = excluded.publish_date;
  END IF;
  RETURN NULL;
END $$;
