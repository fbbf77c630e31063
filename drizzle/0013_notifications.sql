CREATE TYPE "public"."notification_type" AS ENUM('POST', 'POST_COMMENT', 'COMMENT_COMMENT', 'FRIEND_REQUEST', 'MESSAGE', 'FRIEND_BIRTHDAY', 'SEND_EMAIL_MESSAGE', 'FRIEND_APPROVE', 'FRIEND_BLOCKED', 'FRIEND_UNBLOCKED', 'FRIEND_SUBSCRIBE', 'USER_BIRTHDAY', 'LIKE');--> statement-breakpoint
CREATE TABLE "notification_job_runs" (
	"job" text NOT NULL,
	"day" text NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"receiver_id" bigint NOT NULL,
	"author_id" bigint,
	"notification_type" "notification_type" NOT NULL,
	"post_id" bigint,
	"comment_id" bigint,
	"dialog_id" bigint,
	"content" text DEFAULT '' NOT NULL,
	"group_key" text,
	"group_count" integer DEFAULT 1 NOT NULL,
	"actor_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"sent_time" timestamp with time zone DEFAULT now() NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	CONSTRAINT "notifications_group_count_positive" CHECK ("notifications"."group_count" >= 1)
);
--> statement-breakpoint
CREATE TABLE "post_announcements" (
	"post_id" bigint PRIMARY KEY NOT NULL,
	"announced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_receiver_id_accounts_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_dialog_id_dialogs_id_fk" FOREIGN KEY ("dialog_id") REFERENCES "public"."dialogs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_announcements" ADD CONSTRAINT "post_announcements_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_job_runs_key" ON "notification_job_runs" USING btree ("job","day");--> statement-breakpoint
CREATE INDEX "notifications_receiver_time_idx" ON "notifications" USING btree ("receiver_id","sent_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_receiver_unread_idx" ON "notifications" USING btree ("receiver_id") WHERE not "notifications"."is_read";--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_unread_group_key" ON "notifications" USING btree ("receiver_id","group_key") WHERE not "notifications"."is_read" and "notifications"."group_key" is not null;--> statement-breakpoint
CREATE INDEX "notifications_author_idx" ON "notifications" USING btree ("author_id") WHERE "notifications"."author_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_post_idx" ON "notifications" USING btree ("post_id") WHERE "notifications"."post_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_comment_idx" ON "notifications" USING btree ("comment_id") WHERE "notifications"."comment_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_dialog_idx" ON "notifications" USING btree ("dialog_id") WHERE "notifications"."dialog_id" is not null;