-- Issue 24 parts 1 and 3 (ADR 0041): the ranked "today" list and snoozing an event.
--
-- A snoozed event moves to its new day (due_date) and keeps the mark that it was put off (snoozed_at, the
-- latest snooze); mot_event_snooze keeps every snooze: who, when, from which day to which, and why. The
-- pending counts of migration 0010 follow the moved due_date through their UPDATE trigger.
ALTER TABLE "mot_event" ADD COLUMN IF NOT EXISTS "snoozed_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "mot_event_snooze" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL,
	"event_id" bigint NOT NULL REFERENCES "mot_event"("id") ON DELETE CASCADE,
	"staff_id" integer NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"snoozed_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mot_event_snooze_event_idx" ON "mot_event_snooze" USING btree ("event_id", "id");--> statement-breakpoint
-- "Today" is overdue + due today + raised today: the events raised today whatever their due day are found
-- by creation time (the due-day part reads mot_event_todo_idx), so the ranked page never scans a
-- manager's whole pending list for them.
CREATE INDEX IF NOT EXISTS "mot_event_raised_idx" ON "mot_event" USING btree ("staff_id", "created_at") WHERE "status" <> 'handled';--> statement-breakpoint
-- The day's completion ("handled / total") counts what the manager handled today: a range of this index.
CREATE INDEX IF NOT EXISTS "mot_event_handled_at_idx" ON "mot_event" USING btree ("staff_id", "handled_at") WHERE "status" = 'handled';
