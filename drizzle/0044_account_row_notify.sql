-- The own account's row in the session cache (docs/adr/0155): whatever changes a column an account's DTO is
-- made of notifies krug_sessions with 'r:<account id>' in the changing transaction, so every app process
-- forgets its copy on commit (never on a rollback), whichever code or operator made the change. Presence
-- (last_online_time, touched by the realtime sidecar once a minute while connected) notifies only when the
-- account comes back online (its previous sign of life older than the 120 s online window, or none): a
-- cached copy is kept at most 30 s, so within it the touches it misses cannot turn "online" into "offline".
-- tests/integration/account-row-cache.test.ts checks this list against the DTO's columns.
CREATE FUNCTION krug_sessions_notify_account_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('krug_sessions', 'r:' || OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_row_cache AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (
    (OLD.email, OLD.first_name, OLD.last_name, OLD.photo, OLD.profile_cover, OLD.birth_date, OLD.phone,
     OLD.country_code, OLD.country, OLD.city_id, OLD.city, OLD.about, OLD.emoji_status, OLD.is_deleted,
     OLD.deletion_timestamp, OLD.profile_visibility, OLD.messages_from, OLD.friend_requests_from, OLD.id)
    IS DISTINCT FROM
    (NEW.email, NEW.first_name, NEW.last_name, NEW.photo, NEW.profile_cover, NEW.birth_date, NEW.phone,
     NEW.country_code, NEW.country, NEW.city_id, NEW.city, NEW.about, NEW.emoji_status, NEW.is_deleted,
     NEW.deletion_timestamp, NEW.profile_visibility, NEW.messages_from, NEW.friend_requests_from, NEW.id)
    OR (NEW.last_online_time IS DISTINCT FROM OLD.last_online_time
        AND (OLD.last_online_time IS NULL OR NEW.last_online_time IS NULL
             OR NEW.last_online_time - OLD.last_online_time > interval '120 seconds'))
  )
  EXECUTE FUNCTION krug_sessions_notify_account_row();
--> statement-breakpoint
-- An account deleted outright (only an operator does that; the app anonymises): named one by one, or, past
-- 100 in one statement, everyone forgets everything.
CREATE FUNCTION krug_sessions_notify_accounts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM gone) > 100 THEN
    PERFORM pg_notify('krug_sessions', '*');
  ELSE
    PERFORM pg_notify('krug_sessions', 'r:' || g.id::text) FROM gone g;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_row_cache_deleted AFTER DELETE ON accounts
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION krug_sessions_notify_accounts_deleted();
