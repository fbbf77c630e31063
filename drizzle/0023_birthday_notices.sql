CREATE TABLE "birthday_notices" (
	"account_id" bigint NOT NULL,
	"day" text NOT NULL,
	CONSTRAINT "birthday_notices_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
ALTER TABLE "birthday_notices" ADD CONSTRAINT "birthday_notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;