ALTER TYPE "public"."notification_type" ADD VALUE 'GROUP_ADDED';--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_group_added" boolean DEFAULT true NOT NULL;