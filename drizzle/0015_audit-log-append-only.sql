-- The audit log is append-only (issue 13, docs/adr/0082): rows are never updated or deleted, except the
-- foreign key's own ON DELETE SET NULL of actor_id should an actor's row ever be removed.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.actor_id IS NULL
     AND (NEW.id, NEW.action, NEW.target_type, NEW.target_id, NEW.target_account_id, NEW.reason, NEW.details::text, NEW.created_at)
         IS NOT DISTINCT FROM (OLD.id, OLD.action, OLD.target_type, OLD.target_id, OLD.target_account_id, OLD.reason, OLD.details::text, OLD.created_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
