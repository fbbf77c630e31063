ALTER TYPE "public"."one_time_link_kind" ADD VALUE 'EMAIL_UNDO';--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "successor_sealed" text;