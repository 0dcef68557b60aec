-- MOT pushed into WeCom (issue 24.2, ADR 0042). Each manager with new events gets one textcard through
-- the mot agent; mot_push is the outbox every replica claims from with row locks.
--
-- mot_push_event says which card announced an event (push_id 0: none — older than this feature, no
-- longer new, a rule never announced, a manager who opted out). Its primary key makes each event
-- announced once however many triggers race: an insert is cheap where marking the event row itself
-- rewrote every index of mot_event (measured: 7.5 s against 0.9 s for 200,000 events).
CREATE TABLE IF NOT EXISTS "mot_push_event" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"push_id" bigint NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mot_push_event_push_idx" ON "mot_push_event" USING btree ("push_id") WHERE "push_id" > 0;--> statement-breakpoint
-- Candidates are the events of the last two days not yet in mot_push_event: a BRIN index over the
-- creation time (rows arrive in time order) finds them for a few pages of index, at almost no cost to
-- the sweep's inserts.
CREATE INDEX IF NOT EXISTS "mot_event_created_brin" ON "mot_event" USING brin ("created_at");--> statement-breakpoint
-- Events already there are old news: announced by no card.
INSERT INTO "mot_push_event" ("event_id", "push_id")
SELECT "id", 0 FROM "mot_event" WHERE "created_at" > now() - interval '2 days'
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- A manager's opt-out (the MOT settings sheet): no card, and their events are not held for later.
ALTER TABLE "staff" ADD COLUMN IF NOT EXISTS "mot_push_opt_out" boolean NOT NULL DEFAULT false;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "mot_push" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL REFERENCES "corp"("id"),
	"staff_id" integer NOT NULL REFERENCES "staff"("id"),
	-- pending (open: later events join it) → sending → sent | skipped | failed; sending → retry (its body
	-- fixed) after a retryable failure → sending …
	"status" text DEFAULT 'pending' NOT NULL,
	-- What raised it: sweep | import | threshold (the first trigger; later ones merge into a pending card).
	"reason" text NOT NULL,
	-- Not before: quiet hours, the per-member interval and retry back-off all move it.
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	-- The message/send body, fixed before the first attempt and resent byte for byte: with
	-- enable_duplicate_check WeCom drops a repeat of the same JSON within duplicate_check_interval.
	"body" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"first_attempt_at" timestamp with time zone,
	-- An attempt whose outcome is unknown (timeout, no answer, a replica that died mid-send).
	"maybe_delivered" boolean DEFAULT false NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"msgid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);--> statement-breakpoint
-- One card waiting per manager: later triggers merge into it instead of queueing a second card.
CREATE UNIQUE INDEX IF NOT EXISTS "mot_push_one_pending_uq" ON "mot_push" USING btree ("staff_id") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mot_push_due_idx" ON "mot_push" USING btree ("not_before") WHERE "status" IN ('pending', 'retry', 'sending');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mot_push_staff_sent_idx" ON "mot_push" USING btree ("staff_id", "sent_at" DESC) WHERE "status" = 'sent';
