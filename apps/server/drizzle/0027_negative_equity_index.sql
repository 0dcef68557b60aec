-- The negative_equity MOT rule (issue 24, ADR 0043) reads the clients whose net assets are below zero. They
-- are few (margin clients whose loan outgrew their holdings), so this partial index holds just them: the
-- daily sweep reads a handful of entries instead of scanning every customer, and the index costs almost
-- nothing to keep (a row enters or leaves it only when its summary's sign changes).
CREATE INDEX IF NOT EXISTS "customer_negative_equity_idx" ON "customer" USING btree ("id") WHERE "total_assets_hkd" < 0;
