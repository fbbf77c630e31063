CREATE TYPE "public"."one_time_link_kind" AS ENUM('PASSWORD_RECOVERY', 'PASSWORD_CHANGE', 'EMAIL_CHANGE');--> statement-breakpoint
CREATE TYPE "public"."friend_status" AS ENUM('FRIEND', 'REQUEST_TO', 'REQUEST_FROM', 'SUBSCRIBED', 'WATCHING', 'BLOCKED', 'REJECTING');--> statement-breakpoint
CREATE TABLE "captchas" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"enable_post" boolean DEFAULT true NOT NULL,
	"enable_post_comment" boolean DEFAULT true NOT NULL,
	"enable_comment_comment" boolean DEFAULT true NOT NULL,
	"enable_friend_request" boolean DEFAULT true NOT NULL,
	"enable_message" boolean DEFAULT true NOT NULL,
	"enable_friend_birthday" boolean DEFAULT true NOT NULL,
	"enable_send_email_message" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" "one_time_link_kind" NOT NULL,
	"account_id" bigint NOT NULL,
	"new_email" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "friendships" (
	"account_id" bigint NOT NULL,
	"friend_id" bigint NOT NULL,
	"status_code" "friend_status" NOT NULL,
	"previous_status_code" "friend_status",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friendships_account_id_friend_id_pk" PRIMARY KEY("account_id","friend_id"),
	CONSTRAINT "friendships_not_self" CHECK ("friendships"."account_id" <> "friendships"."friend_id")
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_links" ADD CONSTRAINT "one_time_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_friend_id_accounts_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captchas_expires_idx" ON "captchas" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "one_time_links_account_kind_idx" ON "one_time_links" USING btree ("account_id","kind");--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire") WHERE "rate_limits"."expire" is not null;--> statement-breakpoint
CREATE INDEX "friendships_account_status_idx" ON "friendships" USING btree ("account_id","status_code","updated_at" DESC NULLS LAST);