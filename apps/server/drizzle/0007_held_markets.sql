ALTER TABLE "customer" ADD COLUMN "held_markets" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Filled like refreshCustomerSummaries fills it from now on.
UPDATE customer c SET held_markets = m.markets
  FROM (SELECT h.customer_id, array_agg(DISTINCT s.market ORDER BY s.market) AS markets
          FROM holding h JOIN security s ON s.id = h.security_id
         WHERE h.quantity > 0 GROUP BY h.customer_id) m
 WHERE m.customer_id = c.id AND c.held_markets IS DISTINCT FROM m.markets;
--> statement-breakpoint
-- Filtered counts and sums of a book (asset range, open dates, markets, a one-character name…) still
-- visit every customer of the book; with every column they test in the index they are index-only
-- scans instead of a heap visit per customer. corp_id is in the key because every query scopes on it;
-- id lets the KYC filter join kyc_binding from the index alone.
CREATE INDEX IF NOT EXISTS customer_staff_book_cover_idx ON customer (staff_id, corp_id)
  INCLUDE (id, channel, status, open_date, total_assets_hkd, held_markets, name_cn);
