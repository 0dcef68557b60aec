-- Sessions are cached in each server process (ADR 0010). Any change that can end a session — a
-- session revoked, expired early or deleted, a staff member deactivated, renamed or moved — tells
-- every process through NOTIFY, delivered at commit; the payload is the staff member whose cached
-- sessions must be read again ('*': all of them). The trigger's argument names the column that
-- holds the staff id.
CREATE OR REPLACE FUNCTION notify_session_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('broker_session_changed', '*');
  ELSE
    PERFORM pg_notify('broker_session_changed', to_jsonb(OLD) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER auth_session_change_notify AFTER UPDATE OR DELETE ON auth_session
  FOR EACH ROW EXECUTE FUNCTION notify_session_change('staff_id');--> statement-breakpoint
CREATE TRIGGER auth_session_truncate_notify AFTER TRUNCATE ON auth_session
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_change();--> statement-breakpoint
-- Only what a request's session check reads: a sign-in's contact refresh (email, mobile) stays quiet.
CREATE TRIGGER staff_session_change_notify AFTER UPDATE OF active, name, wecom_user_id, corp_id OR DELETE ON staff
  FOR EACH ROW EXECUTE FUNCTION notify_session_change('id');--> statement-breakpoint
CREATE TRIGGER staff_truncate_notify AFTER TRUNCATE ON staff
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_change();
