ALTER TABLE "dialogs" DROP CONSTRAINT "dialogs_ordered_pair";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_text_length";--> statement-breakpoint
ALTER TABLE "dialog_members" ALTER COLUMN "partner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ALTER COLUMN "account_low" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ALTER COLUMN "account_high" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "recipient_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "from_message_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "left_message_id" bigint;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "from_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "until_count" integer;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "read_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "unread_adjust" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialog_members" ADD COLUMN "muted_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "kind" text DEFAULT 'PERSONAL' NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "photo" text;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "members_count" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "activity_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "read_top_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "read_top_by" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogs" ADD COLUMN "read_second_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "event" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "mentions" bigint[];--> statement-breakpoint
ALTER TABLE "dialogs" ADD CONSTRAINT "dialogs_kind_shape" CHECK (("dialogs"."kind" = 'PERSONAL' and "dialogs"."account_low" is not null and "dialogs"."account_high" is not null and "dialogs"."account_low" < "dialogs"."account_high")
        or ("dialogs"."kind" = 'GROUP' and "dialogs"."account_low" is null and "dialogs"."account_high" is null and "dialogs"."title" is not null));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_text_length" CHECK (char_length("messages"."message_text") between 1 and 4000 or ("messages"."message_text" = '' and ("messages"."deleted_at" is not null or "messages"."images" is not null or "messages"."event" is not null)));