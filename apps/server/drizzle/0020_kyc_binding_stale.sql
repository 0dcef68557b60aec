-- WeCom's change_external_contact callback (ADR 0019). A binding whose contact and manager are no
-- longer connected in WeCom is kept and marked stale (the manager decides whether to unbind);
-- contact_changed_at is WeCom's CreateTime of the last event applied to it, so an older event
-- delivered late (WeCom retries) never undoes a newer one.
ALTER TABLE kyc_binding ADD COLUMN stale_at timestamp with time zone;--> statement-breakpoint
ALTER TABLE kyc_binding ADD COLUMN stale_reason text;--> statement-breakpoint
ALTER TABLE kyc_binding ADD COLUMN contact_changed_at timestamp with time zone;--> statement-breakpoint
ALTER TABLE kyc_binding ADD CONSTRAINT kyc_binding_stale_reason_ck
  CHECK ((stale_at IS NULL) = (stale_reason IS NULL) AND (stale_reason IS NULL OR stale_reason IN ('del_follow_user', 'del_external_contact')));--> statement-breakpoint
-- One row per callback event received: the primary key lets each event through once, whichever
-- replica WeCom's retries reach; written in the transaction that applies the event.
CREATE TABLE wecom_callback_event (
  corp_id integer NOT NULL REFERENCES corp(id),
  event_key text NOT NULL,
  change_type text NOT NULL,
  wecom_user_id text,
  external_user_id text,
  occurred_at timestamp with time zone NOT NULL,
  received_at timestamp with time zone NOT NULL DEFAULT now(),
  outcome text NOT NULL,
  PRIMARY KEY (corp_id, event_key)
);--> statement-breakpoint
CREATE INDEX wecom_callback_event_received_idx ON wecom_callback_event (received_at);
