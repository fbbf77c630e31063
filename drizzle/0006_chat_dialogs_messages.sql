CREATE TABLE "dialog_members" (
	"dialog_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"partner_id" bigint NOT NULL,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"last_read_message_id" bigint DEFAULT 0 NOT NULL,
	"activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dialog_members_dialog_id_account_id_pk" PRIMARY KEY("dialog_id","account_id"),
	CONSTRAINT "dialog_members_unread_nonnegative" CHECK ("dialog_members"."unread_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "dialogs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dialogs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_low" bigint NOT NULL,
	"account_high" bigint NOT NULL,
	"last_message_id" bigint,
	"message_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dialogs_ordered_pair" CHECK ("dialogs"."account_low" < "dialogs"."account_high")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"dialog_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	"recipient_id" bigint NOT NULL,
	"message_text" text NOT NULL,
	"client_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_text_length" CHECK (char_length("messages"."message_text") between 1 and 4000)
);
--> statement-breakpoint
ALTER TABLE "dialog_members" ADD CONSTRAINT "dialog_members_dialog_id_dialogs_id_fk" FOREIGN KEY ("dialog_id") REFERENCES "public"."dialogs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD CONSTRAINT "dialog_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD CONSTRAINT "dialog_members_partner_id_accounts_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialogs" ADD CONSTRAINT "dialogs_account_low_accounts_id_fk" FOREIGN KEY ("account_low") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialogs" ADD CONSTRAINT "dialogs_account_high_accounts_id_fk" FOREIGN KEY ("account_high") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_dialog_id_dialogs_id_fk" FOREIGN KEY ("dialog_id") REFERENCES "public"."dialogs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_id_accounts_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dialog_members_list_idx" ON "dialog_members" USING btree ("account_id",("unread_count" > 0) desc,"activity_at" desc,"dialog_id" desc);--> statement-breakpoint
CREATE INDEX "dialog_members_partner_idx" ON "dialog_members" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dialogs_pair_key" ON "dialogs" USING btree ("account_low","account_high");--> statement-breakpoint
CREATE INDEX "dialogs_account_high_idx" ON "dialogs" USING btree ("account_high");--> statement-breakpoint
CREATE INDEX "messages_dialog_time_idx" ON "messages" USING btree ("dialog_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "messages_author_client_key" ON "messages" USING btree ("author_id","client_id");--> statement-breakpoint
CREATE INDEX "messages_recipient_idx" ON "messages" USING btree ("recipient_id");