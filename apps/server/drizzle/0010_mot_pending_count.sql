CREATE TABLE "mot_pending_count" (
	"staff_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"rule" text NOT NULL,
	"corp_id" integer NOT NULL,
	"events" integer NOT NULL,
	"unseen" integer NOT NULL,
	CONSTRAINT "mot_pending_count_staff_id_due_date_rule_corp_id_pk" PRIMARY KEY("staff_id","due_date","rule","corp_id")
);
--> statement-breakpoint
-- One grouped upsert per writing statement (the engine's INSERT … SELECT of a whole rule, a
-- 200-event "seen", a reassignment that moves events), with transition tables, in the writer's
-- transaction. Deltas that cancel out are skipped, and rows are applied in key order so two
-- writers cannot deadlock on them. Large-money rules are left out (see the table's comment).
CREATE OR REPLACE FUNCTION mot_pending_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM mot_pending_count;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO mot_pending_count AS p (staff_id, due_date, rule, corp_id, events, unseen)
    SELECT staff_id, due_date, rule, corp_id, count(*), count(*) FILTER (WHERE status = 'new')
      FROM new_events WHERE status <> 'handled' AND rule NOT IN ('large_deposit', 'large_withdrawal')
     GROUP BY staff_id, due_date, rule, corp_id ORDER BY staff_id, due_date, rule, corp_id
    ON CONFLICT (staff_id, due_date, rule, corp_id)
    DO UPDATE SET events = p.events + excluded.events, unseen = p.unseen + excluded.unseen;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO mot_pending_count AS p (staff_id, due_date, rule, corp_id, events, unseen)
    SELECT staff_id, due_date, rule, corp_id, -count(*), -count(*) FILTER (WHERE status = 'new')
      FROM old_events WHERE status <> 'handled' AND rule NOT IN ('large_deposit', 'large_withdrawal')
     GROUP BY staff_id, due_date, rule, corp_id ORDER BY staff_id, due_date, rule, corp_id
    ON CONFLICT (staff_id, due_date, rule, corp_id)
    DO UPDATE SET events = p.events + excluded.events, unseen = p.unseen + excluded.unseen;
  ELSE
    INSERT INTO mot_pending_count AS p (staff_id, due_date, rule, corp_id, events, unseen)
    SELECT staff_id, due_date, rule, corp_id, sum(events), sum(unseen)
      FROM (SELECT staff_id, due_date, rule, corp_id, 1 AS events, (status = 'new')::int AS unseen
              FROM new_events WHERE status <> 'handled' AND rule NOT IN ('large_deposit', 'large_withdrawal')
            UNION ALL
            SELECT staff_id, due_date, rule, corp_id, -1, -(status = 'new')::int
              FROM old_events WHERE status <> 'handled' AND rule NOT IN ('large_deposit', 'large_withdrawal')) delta
     GROUP BY staff_id, due_date, rule, corp_id
    HAVING sum(events) <> 0 OR sum(unseen) <> 0
     ORDER BY staff_id, due_date, rule, corp_id
    ON CONFLICT (staff_id, due_date, rule, corp_id)
    DO UPDATE SET events = p.events + excluded.events, unseen = p.unseen + excluded.unseen;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- No event may be written between the backfill and the triggers.
LOCK TABLE mot_event IN SHARE MODE;
--> statement-breakpoint
CREATE TRIGGER mot_event_counts_inserted AFTER INSERT ON mot_event
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION mot_pending_count_apply();
--> statement-breakpoint
CREATE TRIGGER mot_event_counts_updated AFTER UPDATE ON mot_event
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION mot_pending_count_apply();
--> statement-breakpoint
CREATE TRIGGER mot_event_counts_deleted AFTER DELETE ON mot_event
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE FUNCTION mot_pending_count_apply();
--> statement-breakpoint
CREATE TRIGGER mot_event_counts_truncated AFTER TRUNCATE ON mot_event
  FOR EACH STATEMENT EXECUTE FUNCTION mot_pending_count_apply();
--> statement-breakpoint
INSERT INTO mot_pending_count (staff_id, due_date, rule, corp_id, events, unseen)
SELECT staff_id, due_date, rule, corp_id, count(*), count(*) FILTER (WHERE status = 'new')
  FROM mot_event WHERE status <> 'handled' AND rule NOT IN ('large_deposit', 'large_withdrawal')
 GROUP BY staff_id, due_date, rule, corp_id;
--> statement-breakpoint
-- The large-money events the counts leave out, counted live against the manager's threshold.
CREATE INDEX IF NOT EXISTS mot_event_pending_cash_io_idx ON mot_event (staff_id, due_date)
  INCLUDE (corp_id, rule, status, cash_io_hkd) WHERE status <> 'handled' AND rule IN ('large_deposit', 'large_withdrawal');
--> statement-breakpoint
-- The name copy of migration 0009, made cheaper: the engine now supplies customer_name_en from the
-- customer row its rules already read, so the lookup runs only for other writers (fixtures, imports,
-- a manual INSERT). Unconditional, it cost 4 s per 190,000-row sweep on the 1,000,000-customer
-- database — BEFORE triggers run even for the rows ON CONFLICT DO NOTHING then drops.
DROP TRIGGER IF EXISTS mot_event_copies_customer_name ON mot_event;
--> statement-breakpoint
CREATE TRIGGER mot_event_copies_customer_name BEFORE INSERT ON mot_event
  FOR EACH ROW WHEN (NEW.customer_name_en IS NULL) EXECUTE FUNCTION mot_event_copy_customer_name();
--> statement-breakpoint
CREATE TRIGGER mot_event_recopies_customer_name BEFORE UPDATE OF customer_id ON mot_event
  FOR EACH ROW WHEN (OLD.customer_id IS DISTINCT FROM NEW.customer_id) EXECUTE FUNCTION mot_event_copy_customer_name();
