-- The ranked MOT day (ADR 0041) scores every pending event of a manager's day: ~330 ms for the 1M bench's
-- busiest book (24,779 events), where a page must take a few. The server keeps each manager's ranked day
-- in memory and serves pages from it while nothing it was computed from has changed: this version, per
-- manager, is bumped in the writer's own transaction by every write that can change a score, the day's
-- set or a row shown (the events, the clients' contact records, the manager's threshold); the clients'
-- own rows (assets: the tier; names) are covered by staff_book_version. Rows are never deleted: a
-- version only grows (a missing row reads as 0).
CREATE TABLE IF NOT EXISTS "mot_rank_version" (
	"corp_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "mot_rank_version_corp_id_staff_id_pk" PRIMARY KEY("corp_id","staff_id")
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION mot_rank_version_bump(corps integer[], staffs integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO mot_rank_version AS v (corp_id, staff_id, version)
  SELECT DISTINCT corp_id, staff_id, 1 FROM unnest(corps, staffs) AS t(corp_id, staff_id)
   WHERE corp_id IS NOT NULL AND staff_id IS NOT NULL
   ORDER BY corp_id, staff_id
  ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
$$;--> statement-breakpoint
-- mot_event: the event's own manager (an event follows its client to a new manager: both, old and new rows).
CREATE OR REPLACE FUNCTION mot_rank_version_bump_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM mot_rank_version_bump(array_agg(corp_id), array_agg(staff_id)) FROM (SELECT DISTINCT corp_id, staff_id FROM new_rows) t;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM mot_rank_version_bump(array_agg(corp_id), array_agg(staff_id)) FROM (SELECT DISTINCT corp_id, staff_id FROM old_rows) t;
  ELSE
    PERFORM mot_rank_version_bump(array_agg(corp_id), array_agg(staff_id))
       FROM (SELECT corp_id, staff_id FROM new_rows UNION SELECT corp_id, staff_id FROM old_rows) t;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- contact_record: the client's manager (the days since the last contact weigh the client's events).
CREATE OR REPLACE FUNCTION mot_rank_version_bump_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mot_rank_version_bump(array_agg(c.corp_id), array_agg(c.staff_id))
     FROM (SELECT DISTINCT c.corp_id, c.staff_id FROM customer c WHERE c.id IN (SELECT customer_id FROM new_rows)) c;
  RETURN NULL;
END $$;--> statement-breakpoint
-- staff: the large cash in/out threshold hides or shows events.
CREATE OR REPLACE FUNCTION mot_rank_version_bump_staff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mot_rank_version_bump(array_agg(n.corp_id), array_agg(n.id))
     FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.min_cash_io IS DISTINCT FROM o.min_cash_io;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER mot_event_rank_version_insert AFTER INSERT ON mot_event
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_events();--> statement-breakpoint
CREATE TRIGGER mot_event_rank_version_update AFTER UPDATE ON mot_event
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_events();--> statement-breakpoint
CREATE TRIGGER mot_event_rank_version_delete AFTER DELETE ON mot_event
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_events();--> statement-breakpoint
CREATE TRIGGER contact_record_rank_version_insert AFTER INSERT ON contact_record
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_contacts();--> statement-breakpoint
CREATE TRIGGER contact_record_rank_version_update AFTER UPDATE ON contact_record
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_contacts();--> statement-breakpoint
CREATE TRIGGER staff_rank_version_update AFTER UPDATE ON staff
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_staff();--> statement-breakpoint
-- TRUNCATE has no transition table: every manager's ranked day is computed again.
CREATE OR REPLACE FUNCTION mot_rank_version_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE mot_rank_version SET version = version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER mot_event_rank_version_truncate AFTER TRUNCATE ON mot_event
  FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_all();--> statement-breakpoint
CREATE TRIGGER contact_record_rank_version_truncate AFTER TRUNCATE ON contact_record
  FOR EACH STATEMENT EXECUTE FUNCTION mot_rank_version_bump_all();
