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
CREATE UNIQUE INDEX "accounts_fediverse_name_key" ON "accounts" USING btree (lower("fediverse_name")) WHERE "accounts"."fediverse_name" is not null;--> statement-breakpoint
-- The DTO's columns now include the fediverse switch and the short name (the profile's address): the
-- session cache's trigger of migration 0044 watches them too.
DROP TRIGGER accounts_notify_row_cache ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_row_cache AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (
    (OLD.email, OLD.first_name, OLD.last_name, OLD.photo, OLD.profile_cover, OLD.birth_date, OLD.phone,
     OLD.country_code, OLD.country, OLD.city_id, OLD.city, OLD.about, OLD.emoji_status, OLD.is_deleted,
     OLD.deletion_timestamp, OLD.profile_visibility, OLD.messages_from, OLD.friend_requests_from, OLD.fediverse,
     OLD.fediverse_name, OLD.id)
    IS DISTINCT FROM
    (NEW.email, NEW.first_name, NEW.last_name, NEW.photo, NEW.profile_cover, NEW.birth_date, NEW.phone,
     NEW.country_code, NEW.country, NEW.city_id, NEW.city, NEW.about, NEW.emoji_status, NEW.is_deleted,
     NEW.deletion_timestamp, NEW.profile_visibility, NEW.messages_from, NEW.friend_requests_from, NEW.fediverse,
     NEW.fediverse_name, NEW.id)
    OR (NEW.last_online_time IS DISTINCT FROM OLD.last_online_time
        AND (OLD.last_online_time IS NULL OR NEW.last_online_time IS NULL
             OR NEW.last_online_time - OLD.last_online_time > interval '120 seconds'))
  )
  EXECUTE FUNCTION krug_sessions_notify_account_row();
