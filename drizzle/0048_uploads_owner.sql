CREATE TABLE "uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_account_idx" ON "uploads" USING btree ("account_id");--> statement-breakpoint
-- Uploads from before this table (issue 40 item 6, docs/adr/0161): each key goes to the account that used it
-- first — as its photo or cover (registration time), a post's image, or a message's photo.
INSERT INTO "uploads" ("key", "account_id", "created_at")
SELECT DISTINCT ON (u.key) u.key, u.account_id, u.at
FROM (
  SELECT substring(a.photo from '^/api/v1/storage/files/([a-f0-9]{32}\.webp)$') AS key, a.id AS account_id, a.created_at AS at FROM accounts a
  UNION ALL
  SELECT substring(a.profile_cover from '^/api/v1/storage/files/([a-f0-9]{32}\.webp)$'), a.id, a.created_at FROM accounts a
  UNION ALL
  SELECT substring(p.image_path from '^/api/v1/storage/files/([a-f0-9]{32}\.webp)$'), p.author_id, p.time FROM posts p WHERE p.image_path IS NOT NULL
  UNION ALL
  SELECT substring(i.path from '^/api/v1/storage/files/([a-f0-9]{32}\.webp)$'), m.author_id, m.created_at
  FROM messages m CROSS JOIN LATERAL unnest(m.images) AS i(path) WHERE m.images IS NOT NULL
) u
WHERE u.key IS NOT NULL
ORDER BY u.key, u.at, u.account_id
ON CONFLICT ("key") DO NOTHING;
