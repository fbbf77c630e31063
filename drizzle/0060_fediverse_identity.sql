CREATE TABLE "account_keys" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"rsa_public" jsonb NOT NULL,
	"rsa_private" jsonb NOT NULL,
	"ed25519_public" jsonb NOT NULL,
	"ed25519_private" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "fediverse" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "fediverse_name" text;--> statement-breakpoint
ALTER TABLE "account_keys" ADD CONSTRAINT "account_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_fediverse_name_key" ON "accounts" USING btree (lower("fediverse_name")) WHERE "accounts"."fediverse_name" is not null;