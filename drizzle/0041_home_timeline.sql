CREATE TABLE "home_timeline" (
	"account_id" bigint NOT NULL,
	"publish_date" timestamp with time zone NOT NULL,
	"post_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	CONSTRAINT "home_timeline_account_id_publish_date_post_id_author_id_pk" PRIMARY KEY("account_id","publish_date","post_id","author_id")
);
--> statement-breakpoint
CREATE TABLE "home_timeline_authors" (
	"author_id" bigint PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "home_timeline_pending" (
	"post_id" bigint PRIMARY KEY NOT NULL,
	"author_id" bigint NOT NULL,
	"publish_date" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "home_timeline_state" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"built" boolean DEFAULT false NOT NULL,
	"horizon_date" timestamp with time zone,
	"horizon_id" bigint,
	"needs_trim" boolean DEFAULT false NOT NULL,
	"visited_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "home_timeline_post_idx" ON "home_timeline" USING btree ("post_id","account_id");--> statement-breakpoint
-- The home timeline's change capture (docs/adr/0137): in the writer's transaction, whatever path wrote.
-- Nothing is noted while no account has a timeline (a fresh database, the tests that never build one).
CREATE FUNCTION home_timeline_post_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM home_timeline_state) THEN
    INSERT INTO home_timeline_pending (post_id, author_id, publish_date) VALUES (NEW.id, NEW.author_id, NEW.publish_date)
    ON CONFLICT (post_id) DO UPDATE SET publish_date = excluded.publish_date;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER home_timeline_post_inserted AFTER INSERT ON posts
  FOR EACH ROW EXECUTE FUNCTION home_timeline_post_changed();
--> statement-breakpoint
CREATE TRIGGER home_timeline_post_updated AFTER UPDATE OF is_deleted, is_blocked, publish_date ON posts
  FOR EACH ROW WHEN (OLD.is_deleted IS DISTINCT FROM NEW.is_deleted OR OLD.is_blocked IS DISTINCT FROM NEW.is_blocked
                     OR OLD.publish_date IS DISTINCT FROM NEW.publish_date)
  EXECUTE FUNCTION home_timeline_post_changed();
--> statement-breakpoint
CREATE FUNCTION home_timeline_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM home_timeline_state) THEN
    INSERT INTO home_timeline_authors (author_id) VALUES (NEW.id)
    ON CONFLICT (author_id) DO UPDATE SET changed_at = now();
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER home_timeline_account_changed AFTER UPDATE OF is_deleted, is_blocked, profile_visibility ON accounts
  FOR EACH ROW WHEN (OLD.is_deleted IS DISTINCT FROM NEW.is_deleted OR OLD.is_blocked IS DISTINCT FROM NEW.is_blocked
                     OR OLD.profile_visibility IS DISTINCT FROM NEW.profile_visibility)
  EXECUTE FUNCTION home_timeline_account_changed();
