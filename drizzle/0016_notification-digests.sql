CREATE TABLE "notification_digests" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	"last_notification_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_digests" ADD CONSTRAINT "notification_digests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;