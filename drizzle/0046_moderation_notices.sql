ALTER TYPE "public"."notification_type" ADD VALUE 'CONTENT_BLOCKED';--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "details" jsonb;