CREATE TYPE "public"."friend_requests_from" AS ENUM('ALL', 'FRIENDS_OF_FRIENDS');--> statement-breakpoint
CREATE TYPE "public"."messages_from" AS ENUM('ALL', 'FRIENDS');--> statement-breakpoint
CREATE TYPE "public"."profile_visibility" AS ENUM('ALL', 'FRIENDS');--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "profile_visibility" "profile_visibility" DEFAULT 'ALL' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "messages_from" "messages_from" DEFAULT 'ALL' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "friend_requests_from" "friend_requests_from" DEFAULT 'ALL' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "searchable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "accounts_closed_idx" ON "accounts" USING btree ("id") WHERE "accounts"."profile_visibility" <> 'ALL';--> statement-breakpoint
CREATE INDEX "accounts_unsearchable_idx" ON "accounts" USING btree ("id") WHERE not "accounts"."searchable";