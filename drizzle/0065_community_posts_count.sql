ALTER TABLE "communities" ADD COLUMN "posts_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_community_blocked_idx" ON "posts" USING btree ("community_id","publish_date","author_id") WHERE "posts"."is_blocked" and not "posts"."is_deleted" and "posts"."community_id" is not null;--> statement-breakpoint
ALTER TABLE "communities" ADD CONSTRAINT "communities_posts_count_not_negative" CHECK ("communities"."posts_count" >= 0);--> statement-breakpoint
-- A community's posts not deleted (ADR 0187), counted in the writer's transaction whatever path wrote: a post
-- made, deleted or restored, an account's erasure. Scheduled and moderated posts count; the wall's total takes
-- away those its reader may not see.
CREATE FUNCTION community_posts_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.community_id IS NOT NULL AND NOT OLD.is_deleted THEN
    UPDATE communities SET posts_count = posts_count - 1 WHERE id = OLD.community_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.community_id IS NOT NULL AND NOT NEW.is_deleted THEN
    UPDATE communities SET posts_count = posts_count + 1 WHERE id = NEW.community_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER community_posts_inserted AFTER INSERT ON posts
  FOR EACH ROW WHEN (NEW.community_id IS NOT NULL) EXECUTE FUNCTION community_posts_counted();--> statement-breakpoint
CREATE TRIGGER community_posts_updated AFTER UPDATE OF is_deleted, community_id ON posts
  FOR EACH ROW WHEN (OLD.is_deleted IS DISTINCT FROM NEW.is_deleted OR OLD.community_id IS DISTINCT FROM NEW.community_id)
  EXECUTE FUNCTION community_posts_counted();--> statement-breakpoint
CREATE TRIGGER community_posts_deleted AFTER DELETE ON posts
  FOR EACH ROW WHEN (OLD.community_id IS NOT NULL) EXECUTE FUNCTION community_posts_counted();--> statement-breakpoint
UPDATE communities c SET posts_count = n.n
FROM (SELECT community_id, count(*) AS n FROM posts WHERE community_id IS NOT NULL AND NOT is_deleted GROUP BY community_id) n
WHERE n.community_id = c.id;
