DROP INDEX "notifications_author_idx";--> statement-breakpoint
DROP INDEX "notifications_post_idx";