-- The MOT to-do page lists a day's pending events sorted by client name. The name lived only on
-- customer, so a page joined and sorted the whole day (18,600 events of a heavy manager on
-- 1,000,000 customers: ~630 ms). A copy of the name on mot_event and one partial index ordered
-- (staff, day, name, customer, event) make a page an ordered index range that stops at its LIMIT,
-- and every to-do count an index-only scan.
-- No rename may slip between the backfill and the trigger that keeps the copy.
LOCK TABLE customer IN SHARE MODE;--> statement-breakpoint
ALTER TABLE "mot_event" ADD COLUMN "customer_name_en" text;--> statement-breakpoint
UPDATE mot_event e SET customer_name_en = c.name_en FROM customer c WHERE c.id = e.customer_id;--> statement-breakpoint
ALTER TABLE "mot_event" ALTER COLUMN "customer_name_en" SET NOT NULL;--> statement-breakpoint
-- The large-money threshold test (amount < staff.min_cash_io) read facts from the heap for every event.
ALTER TABLE "mot_event" ADD COLUMN "cash_io_hkd" numeric GENERATED ALWAYS AS (CASE WHEN rule IN ('large_deposit', 'large_withdrawal') THEN (facts ->> 'amountHkd')::numeric END) STORED;--> statement-breakpoint
-- Every writer of mot_event (the engine's INSERT … SELECT, fixtures, imports) gets the name without
-- knowing about it; a row trigger costs one primary-key probe per new event.
CREATE OR REPLACE FUNCTION mot_event_copy_customer_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.name_en INTO NEW.customer_name_en FROM customer c WHERE c.id = NEW.customer_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER mot_event_copies_customer_name BEFORE INSERT OR UPDATE OF customer_id ON mot_event
  FOR EACH ROW EXECUTE FUNCTION mot_event_copy_customer_name();
--> statement-breakpoint
-- A rename rewrites the copy on all the customer's events in the renaming transaction. Row-level
-- with a WHEN clause: the bulk summary refreshes and imports that update customers without renaming
-- them do not even call the function.
CREATE OR REPLACE FUNCTION mot_event_follow_customer_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE mot_event SET customer_name_en = NEW.name_en WHERE customer_id = NEW.id AND customer_name_en IS DISTINCT FROM NEW.name_en;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customer_renames_mot_events AFTER UPDATE OF name_en ON customer
  FOR EACH ROW WHEN (OLD.name_en IS DISTINCT FROM NEW.name_en) EXECUTE FUNCTION mot_event_follow_customer_name();
--> statement-breakpoint
-- Pending events only (handled ones are never listed), with every column the to-do filters test.
CREATE INDEX IF NOT EXISTS mot_event_todo_idx ON mot_event (staff_id, due_date, customer_name_en, customer_id, id)
  INCLUDE (corp_id, rule, status, cash_io_hkd) WHERE status <> 'handled';
