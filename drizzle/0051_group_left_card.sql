ALTER TABLE "dialog_members" ADD COLUMN "left_title" text;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "left_photo" text;