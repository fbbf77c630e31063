CREATE TABLE "home_timeline_communities" (
	"community_id" bigint PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "posts_community_time_idx";--> statement-breakpoint
ALTER TABLE "communities" ADD COLUMN "read_at_request" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_community_time_idx" ON "posts" USING btree ("publish_date" DESC NULLS LAST,"id" DESC NULLS LAST,"author_id","is_blocked","community_id") WHERE not "posts"."is_deleted" and "posts"."community_id" is not null;
--> statement-breakpoint
-- Communities of up to COMMUNITY_FANOUT_MAX members (10,000 by default) are fanned out into their members'
-- timelines as people's posts are; bigger ones are read at request time (ADR 0188).
UPDATE communities SET read_at_request = true WHERE members_count > 10000;--> statement-breakpoint
-- A community's posts are noted for their fan-out too (0054 left them out), but for a community read at
-- request time (its posts are in no timeline).
CREATE OR REPLACE FUNCTION home_timeline_post_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM home_timeline_state)
     AND (NEW.community_id IS NULL OR NOT EXISTS (SELECT 1 FROM communities c WHERE c.id = NEW.community_id AND c.read_at_request)) THEN
    INSERT INTO home_timeline_pending (post_id, author_id, publish_date) VALUES (NEW.id, NEW.author_id, NEW.publish_date)
    ON CONFLICT (post_id) DO UPDATE SET publish_date = excluded.publish_date;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A community deleted, restored, blocked, unblocked or passed to reading at request time: the job re-syncs
-- its posts in its members' timelines (their pages are right before it: each row is checked as it is read).
CREATE FUNCTION home_timeline_community_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM home_timeline_state) THEN
    INSERT INTO home_timeline_communities (community_id) VALUES (NEW.id)
    ON CONFLICT (community_id) DO UPDATE SET changed_at = now();
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER home_timeline_community_changed AFTER UPDATE OF is_deleted, is_blocked, read_at_request ON communities
  FOR EACH ROW WHEN (OLD.is_deleted IS DISTINCT FROM NEW.is_deleted OR OLD.is_blocked IS DISTINCT FROM NEW.is_blocked
                     OR OLD.read_at_request IS DISTINCT FROM NEW.read_at_request)
  EXECUTE FUNCTION home_timeline_community_changed();
