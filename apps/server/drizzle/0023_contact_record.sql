-- The contact log (issue 23, ADR 0038): MOT's service_record becomes contact_record — the same rows
-- and ids — and grows into a record a compliance review can rely on: purpose, next step, the
-- suitability rationale, versions (a correction after the lock adds a version and keeps the old),
-- and database-level guarantees that no row is deleted and no locked version's content changes.
ALTER TABLE "service_record" RENAME TO "contact_record";--> statement-breakpoint
ALTER SEQUENCE "service_record_id_seq" RENAME TO "contact_record_id_seq";--> statement-breakpoint
ALTER INDEX "service_record_pkey" RENAME TO "contact_record_pkey";--> statement-breakpoint
ALTER INDEX "service_record_staff_time_idx" RENAME TO "contact_record_staff_time_idx";--> statement-breakpoint
ALTER INDEX "service_record_customer_time_idx" RENAME TO "contact_record_customer_time_idx";--> statement-breakpoint
ALTER INDEX "service_record_note_trgm" RENAME TO "contact_record_note_trgm";--> statement-breakpoint
ALTER TABLE "contact_record" RENAME CONSTRAINT "service_record_corp_id_corp_id_fk" TO "contact_record_corp_id_corp_id_fk";--> statement-breakpoint
ALTER TABLE "contact_record" RENAME CONSTRAINT "service_record_customer_id_customer_id_fk" TO "contact_record_customer_id_customer_id_fk";--> statement-breakpoint
ALTER TABLE "contact_record" RENAME CONSTRAINT "service_record_staff_id_staff_id_fk" TO "contact_record_staff_id_staff_id_fk";--> statement-breakpoint
-- purpose: existing records were written when an MOT event was handled; greetings and document
-- renewals say so, everything else was servicing.
ALTER TABLE "contact_record"
  ADD COLUMN "purpose" text NOT NULL DEFAULT 'service',
  ADD COLUMN "next_step" text,
  ADD COLUMN "next_step_date" date,
  ADD COLUMN "suitability" text,
  ADD COLUMN "thread_id" bigint,
  ADD COLUMN "version" integer NOT NULL DEFAULT 1,
  ADD COLUMN "edits" integer NOT NULL DEFAULT 0,
  ADD COLUMN "superseded_by" bigint,
  ADD COLUMN "superseded_at" timestamp with time zone,
  ADD COLUMN "correction_reason" text,
  ADD COLUMN "follows_record_id" bigint,
  ADD COLUMN "locks_at" timestamp with time zone,
  ADD COLUMN "request_id" uuid;--> statement-breakpoint
-- Every MOT event a record served, in one place (several per record). The link belongs to the
-- record's thread (record_id = the first version's id, its thread_id): corrections keep the links.
-- It replaces service_record.mot_event_id, which is migrated into it and dropped (one owner).
CREATE TABLE IF NOT EXISTS "contact_record_event" (
	"record_id" bigint NOT NULL REFERENCES "contact_record"("id"),
	"mot_event_id" bigint NOT NULL REFERENCES "mot_event"("id"),
	CONSTRAINT "contact_record_event_pkey" PRIMARY KEY ("record_id", "mot_event_id")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contact_record_event_event_idx" ON "contact_record_event" USING btree ("mot_event_id");--> statement-breakpoint
INSERT INTO "contact_record_event" ("record_id", "mot_event_id")
SELECT "id", "mot_event_id" FROM "contact_record" WHERE "mot_event_id" IS NOT NULL;--> statement-breakpoint
UPDATE "contact_record" r SET
  "thread_id" = r."id",
  -- Records written before the log existed locked 24 hours after they were written (the default).
  "locks_at" = r."created_at" + interval '24 hours',
  "purpose" = CASE e."rule" WHEN 'birthday' THEN 'care' WHEN 'anniversary' THEN 'care'
                            WHEN 'id_expiry' THEN 'document' WHEN 'risk_expiry' THEN 'document' ELSE 'service' END
  FROM (SELECT r2."id", e2."rule" FROM "contact_record" r2 LEFT JOIN "mot_event" e2 ON e2."id" = r2."mot_event_id") e
 WHERE e."id" = r."id";--> statement-breakpoint
ALTER TABLE "contact_record" DROP COLUMN "mot_event_id";--> statement-breakpoint
ALTER TABLE "contact_record" ALTER COLUMN "purpose" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "contact_record" ALTER COLUMN "locks_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_record"
  ADD CONSTRAINT "contact_record_superseded_by_fk" FOREIGN KEY ("superseded_by") REFERENCES "contact_record"("id"),
  ADD CONSTRAINT "contact_record_follows_record_id_fk" FOREIGN KEY ("follows_record_id") REFERENCES "contact_record"("id"),
  ADD CONSTRAINT "contact_record_superseded_marker_ck" CHECK (("superseded_by" IS NULL) = ("superseded_at" IS NULL)),
  ADD CONSTRAINT "contact_record_version_ck" CHECK ("version" >= 1 AND "edits" >= 0);--> statement-breakpoint
-- thread_id: the first version's id. A first version may leave it out (the id is drawn before
-- BEFORE triggers run); a correction names its thread.
CREATE OR REPLACE FUNCTION contact_record_fill_thread() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.thread_id := coalesce(NEW.thread_id, NEW.id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contact_record_fills_thread BEFORE INSERT ON contact_record
  FOR EACH ROW EXECUTE FUNCTION contact_record_fill_thread();
--> statement-breakpoint
ALTER TABLE "contact_record" ALTER COLUMN "thread_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_record" ADD CONSTRAINT "contact_record_thread_id_fk" FOREIGN KEY ("thread_id") REFERENCES "contact_record"("id");--> statement-breakpoint
-- Retention (docs/contact-log.md): a contact record and its event links are never deleted, whoever asks.
CREATE OR REPLACE FUNCTION contact_record_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'contact records are never deleted (% %)', TG_TABLE_NAME, OLD
    USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER contact_record_refuses_delete BEFORE DELETE ON contact_record
  FOR EACH ROW EXECUTE FUNCTION contact_record_refuse_delete();
--> statement-breakpoint
CREATE TRIGGER contact_record_event_refuses_delete BEFORE DELETE ON contact_record_event
  FOR EACH ROW EXECUTE FUNCTION contact_record_refuse_delete();
--> statement-breakpoint
-- What a version says never changes once it is locked (locks_at passed) or superseded: the only
-- change a locked version takes is the "superseded" marker, set once when a correction replaces it.
-- Who wrote it, about whom, when, and where it sits in its thread never change at all.
CREATE OR REPLACE FUNCTION contact_record_guard_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.thread_id, NEW.version, NEW.corp_id, NEW.customer_id, NEW.staff_id, NEW.created_at, NEW.locks_at, NEW.request_id)
     IS DISTINCT FROM (OLD.id, OLD.thread_id, OLD.version, OLD.corp_id, OLD.customer_id, OLD.staff_id, OLD.created_at, OLD.locks_at, OLD.request_id) THEN
    RAISE EXCEPTION 'contact record %: its author, client, thread, version and times never change', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.superseded_by IS NOT NULL THEN
    RAISE EXCEPTION 'contact record % has been superseded by % and never changes', OLD.id, OLD.superseded_by
      USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.locks_at <= now()
     AND to_jsonb(NEW) - 'superseded_by' - 'superseded_at' IS DISTINCT FROM to_jsonb(OLD) - 'superseded_by' - 'superseded_at' THEN
    RAISE EXCEPTION 'contact record % is locked: only a correction (a new version) can change what it says', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contact_record_guards_update BEFORE UPDATE ON contact_record
  FOR EACH ROW EXECUTE FUNCTION contact_record_guard_update();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contact_record_event_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a contact record''s event links never change' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER contact_record_event_refuses_update BEFORE UPDATE ON contact_record_event
  FOR EACH ROW EXECUTE FUNCTION contact_record_event_refuse_update();
--> statement-breakpoint
-- A client's log, newest contact first, each record as it stands now (keyset on served_at, id).
CREATE INDEX IF NOT EXISTS "contact_record_customer_latest_idx" ON "contact_record" USING btree ("customer_id", "served_at" DESC, "id" DESC) WHERE "superseded_by" IS NULL;--> statement-breakpoint
-- A record's versions.
CREATE INDEX IF NOT EXISTS "contact_record_thread_idx" ON "contact_record" USING btree ("thread_id", "version");--> statement-breakpoint
-- A retry with the same requestId finds the record the first attempt wrote.
CREATE UNIQUE INDEX IF NOT EXISTS "contact_record_request_uq" ON "contact_record" USING btree ("staff_id", "request_id") WHERE "request_id" IS NOT NULL;
