CREATE TABLE "dialog_counts" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"dialogs" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dialog_counts_not_negative" CHECK ("dialog_counts"."dialogs" >= 0)
);
--> statement-breakpoint
ALTER TABLE "dialog_counts" ADD CONSTRAINT "dialog_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each account's number of dialogs (its dialog_members rows), kept in the writer's transaction (ADR 0190).
-- Statement-level: one upsert per inserting statement however many members it adds, its rows taken in
-- account order, so two statements adding overlapping people (two groups made at once) lock them in the
-- same order and cannot deadlock on them.
CREATE FUNCTION dialog_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dialog_counts (account_id, dialogs)
  SELECT account_id, count(*) FROM added GROUP BY account_id ORDER BY account_id
  ON CONFLICT (account_id) DO UPDATE SET dialogs = dialog_counts.dialogs + excluded.dialogs;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION dialog_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The rows in account order first (the same order as the insert's), then the update.
  PERFORM 1 FROM dialog_counts WHERE account_id IN (SELECT account_id FROM removed) ORDER BY account_id FOR UPDATE;
  UPDATE dialog_counts c SET dialogs = c.dialogs - r.n
  FROM (SELECT account_id, count(*)::int AS n FROM removed GROUP BY account_id) r
  WHERE c.account_id = r.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION dialog_counts_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dialog_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER dialog_members_counted_insert AFTER INSERT ON dialog_members
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dialog_counts_added();--> statement-breakpoint
CREATE TRIGGER dialog_members_counted_delete AFTER DELETE ON dialog_members
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dialog_counts_removed();--> statement-breakpoint
CREATE TRIGGER dialog_members_counted_truncate AFTER TRUNCATE ON dialog_members
  FOR EACH STATEMENT EXECUTE FUNCTION dialog_counts_emptied();--> statement-breakpoint
-- A member row never changes account: the count would not follow it.
CREATE FUNCTION dialog_members_account_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'dialog_members.account_id does not change';
END $$;--> statement-breakpoint
CREATE TRIGGER dialog_members_account_fixed BEFORE UPDATE OF account_id ON dialog_members
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION dialog_members_account_fixed();--> statement-breakpoint
INSERT INTO dialog_counts (account_id, dialogs)
SELECT account_id, count(*) FROM dialog_members GROUP BY account_id;
