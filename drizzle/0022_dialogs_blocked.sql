ALTER TABLE "dialogs" ADD COLUMN "blocked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "dialogs" d SET "blocked" = true
WHERE EXISTS (SELECT 1 FROM "friendships" f
              WHERE ((f."account_id" = d."account_low" AND f."friend_id" = d."account_high")
                  OR (f."account_id" = d."account_high" AND f."friend_id" = d."account_low"))
                AND f."status_code" IN ('BLOCKED', 'REJECTING'));
