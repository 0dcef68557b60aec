-- A pending MOT event belongs to the customer's current manager. The MOT engine moved pending events
-- of reassigned customers at the start of each run, so the to-do queries joined every event to
-- customer to check the assignment (18,000 index probes for one manager's day on 1,000,000
-- customers). This trigger moves them in the reassigning statement's own transaction, so the
-- counts (date strip, task count, list total) can trust mot_event.staff_id alone.
CREATE OR REPLACE FUNCTION mot_event_follow_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE mot_event e SET staff_id = n.staff_id
    FROM new_customers n JOIN old_customers o ON o.id = n.id
   WHERE n.staff_id <> o.staff_id AND e.customer_id = n.id AND e.status <> 'handled' AND e.staff_id <> n.staff_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
LOCK TABLE customer IN SHARE MODE;
--> statement-breakpoint
CREATE TRIGGER customer_moves_mot_events AFTER UPDATE ON customer
  REFERENCING OLD TABLE AS old_customers NEW TABLE AS new_customers FOR EACH STATEMENT EXECUTE FUNCTION mot_event_follow_customer();
--> statement-breakpoint
UPDATE mot_event e SET staff_id = c.staff_id FROM customer c
 WHERE c.id = e.customer_id AND e.status <> 'handled' AND e.staff_id <> c.staff_id;
