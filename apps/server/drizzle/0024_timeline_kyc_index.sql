-- The client timeline (issue 23, ADR 0040) shows a client's KYC bindings and unbindings. Their audit rows name
-- the WeCom contact (entity_id = external userid) and carry the customer only in the JSON: after for a bind
-- and for kyc.stale / kyc.fresh, before for an unbind. This index finds one customer's rows newest first,
-- so a page of the timeline reads just the rows it shows; only kyc_binding rows are in it.
CREATE INDEX IF NOT EXISTS "audit_log_kyc_customer_idx" ON "audit_log" USING btree ((coalesce("after", "before") ->> 'customerId'), "at" DESC, "id" DESC) WHERE "entity" = 'kyc_binding';
