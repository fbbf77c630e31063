-- The session cache (docs/adr/0135): whatever ends a session or changes what the session check reads about
-- its account (role, deletion, block, language) notifies krug_sessions in the changing transaction, so every
-- app process hears of it on commit (and never of a rollback), whichever code or operator made the change.
CREATE FUNCTION krug_sessions_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('krug_sessions', 's:' || OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_cache AFTER UPDATE OF revoked_at, expires_at, account_id ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.account_id IS DISTINCT FROM NEW.account_id)
  EXECUTE FUNCTION krug_sessions_notify_session();
--> statement-breakpoint
-- Deleted sessions: the purge deletes only ended ones (nothing to say); live ones (an account deleted outright,
-- an operator) are named one by one, or, past 100 in one statement, everyone forgets everything.
CREATE FUNCTION krug_sessions_notify_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM gone g WHERE g.revoked_at IS NULL AND g.expires_at > now()) > 100 THEN
    PERFORM pg_notify('krug_sessions', '*');
  ELSE
    PERFORM pg_notify('krug_sessions', 's:' || g.id::text) FROM gone g WHERE g.revoked_at IS NULL AND g.expires_at > now();
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_cache_deleted AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION krug_sessions_notify_deleted();
--> statement-breakpoint
CREATE FUNCTION krug_sessions_notify_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('krug_sessions', 'a:' || OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_cache AFTER UPDATE OF role, is_deleted, is_blocked, language ON accounts
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted
    OR OLD.is_blocked IS DISTINCT FROM NEW.is_blocked OR OLD.language IS DISTINCT FROM NEW.language)
  EXECUTE FUNCTION krug_sessions_notify_account();
