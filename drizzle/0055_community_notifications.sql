ALTER TYPE "public"."notification_type" ADD VALUE 'COMMUNITY_REQUEST';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'COMMUNITY_ACCEPTED';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'COMMUNITY_INVITATION';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'COMMUNITY_POST';--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_community_request" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_community_accepted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_community_invitation" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_community_post" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "community_id" bigint;--> statement-breakpoint
CREATE INDEX "notification_settings_community_post_off_idx" ON "notification_settings" USING btree ("account_id") WHERE not "notification_settings"."enable_community_post";