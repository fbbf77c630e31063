CREATE TABLE "weather_cache" (
	"city_id" bigint PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- ADR 0085: comments blocked before this change leave their post's and parent's counts once.
UPDATE "posts" p SET "comments_count" = greatest(0, p."comments_count" - b.n)
FROM (SELECT "post_id", count(*)::int AS n FROM "comments" WHERE "is_blocked" AND NOT "is_deleted" GROUP BY "post_id") b
WHERE b."post_id" = p."id";--> statement-breakpoint
UPDATE "comments" c SET "comments_count" = greatest(0, c."comments_count" - b.n)
FROM (SELECT "parent_id", count(*)::int AS n FROM "comments" WHERE "is_blocked" AND NOT "is_deleted" AND "parent_id" IS NOT NULL GROUP BY "parent_id") b
WHERE b."parent_id" = c."id";
