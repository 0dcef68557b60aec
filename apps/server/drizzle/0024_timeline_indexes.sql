-- The client timeline (issue 23, ADR 0040) shows a client's KYC bindings and unbindings. Their audit rows name
-- the WeCom contact (entity_id = external userid) and carry the customer only in the JSON: after for a bind
-- and for kyc.stale / kyc.fresh, before for an unbind. This index finds one customer's rows newest first,
-- so a page of the timeline reads just the rows it shows; only kyc_binding rows are in it.
CREATE INDEX IF NOT EXISTS "audit_log_kyc_customer_idx" ON "audit_log" USING btree ((coalesce("after", "before") ->> 'customerId'), "at" DESC, "id" DESC) WHERE "entity" = 'kyc_binding';--> statement-breakpoint
-- A timeline page reads at most a page of each source from the cursor down, whatever the client's history
-- (ADR 0040). It first takes the page's ids in the index's own order, (customer, time, id), from the index
-- alone, then fetches those rows: an index-only scan that stops after a page, which no estimate of a
-- client's row count can turn into "read them all and sort" (a generic plan estimates the average client).
-- The id makes the order total (items of one instant); money's amount and currency are included so the
-- large-movement test needs no heap either. Each replaces the index it extends (same name, same prefix).
DROP INDEX IF EXISTS "trade_customer_time_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "trade_customer_time_idx" ON "trade" USING btree ("customer_id","traded_at" DESC,"id" DESC);--> statement-breakpoint
DROP INDEX IF EXISTS "money_movement_customer_time_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "money_movement_customer_time_idx" ON "money_movement" USING btree ("customer_id","occurred_at" DESC,"id" DESC) INCLUDE ("amount","currency");--> statement-breakpoint
DROP INDEX IF EXISTS "stock_transfer_customer_time_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stock_transfer_customer_time_idx" ON "stock_transfer" USING btree ("customer_id","occurred_at" DESC,"id" DESC);
