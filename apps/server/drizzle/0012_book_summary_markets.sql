-- The markets and hasHolding filters counted a book live (an index-only scan of 125,000 entries:
-- 25–80 ms). A book holds only a few distinct held_markets sets (at most 2^4 market combinations),
-- so the set joins channel and status as a key of staff_book_summary and those filters, alone or
-- with channels and statuses, are summed from a few hundred rows instead.
-- No customer write may fall between the refill and the trigger counting by the new key.
LOCK TABLE customer IN SHARE MODE;--> statement-breakpoint
ALTER TABLE "staff_book_summary" DROP CONSTRAINT "staff_book_summary_staff_id_corp_id_channel_status_pk";--> statement-breakpoint
ALTER TABLE "staff_book_summary" ADD COLUMN "held_markets" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
DELETE FROM staff_book_summary;--> statement-breakpoint
INSERT INTO staff_book_summary (corp_id, staff_id, channel, status, held_markets, clients, total_assets_hkd)
SELECT corp_id, staff_id, channel, status, held_markets, count(*), sum(total_assets_hkd)
  FROM customer GROUP BY staff_id, corp_id, channel, status, held_markets;--> statement-breakpoint
ALTER TABLE "staff_book_summary" ADD CONSTRAINT "staff_book_summary_staff_id_corp_id_channel_status_held_markets_pk" PRIMARY KEY("staff_id","corp_id","channel","status","held_markets");--> statement-breakpoint
-- As in 0006, with held_markets in the key: a refresh that changes a customer's markets moves
-- the customer from one row to another in the same statement.
CREATE OR REPLACE FUNCTION staff_book_summary_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staff_book_summary AS s (corp_id, staff_id, channel, status, held_markets, clients, total_assets_hkd)
    SELECT corp_id, staff_id, channel, status, held_markets, count(*), sum(total_assets_hkd)
      FROM new_customers GROUP BY staff_id, corp_id, channel, status, held_markets ORDER BY staff_id, corp_id, channel, status, held_markets
    ON CONFLICT (staff_id, corp_id, channel, status, held_markets)
    DO UPDATE SET clients = s.clients + excluded.clients, total_assets_hkd = s.total_assets_hkd + excluded.total_assets_hkd;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO staff_book_summary AS s (corp_id, staff_id, channel, status, held_markets, clients, total_assets_hkd)
    SELECT corp_id, staff_id, channel, status, held_markets, -count(*), -sum(total_assets_hkd)
      FROM old_customers GROUP BY staff_id, corp_id, channel, status, held_markets ORDER BY staff_id, corp_id, channel, status, held_markets
    ON CONFLICT (staff_id, corp_id, channel, status, held_markets)
    DO UPDATE SET clients = s.clients + excluded.clients, total_assets_hkd = s.total_assets_hkd + excluded.total_assets_hkd;
  ELSE
    INSERT INTO staff_book_summary AS s (corp_id, staff_id, channel, status, held_markets, clients, total_assets_hkd)
    SELECT corp_id, staff_id, channel, status, held_markets, sum(clients), sum(assets)
      FROM (SELECT corp_id, staff_id, channel, status, held_markets, 1 AS clients, total_assets_hkd AS assets FROM new_customers
            UNION ALL
            SELECT corp_id, staff_id, channel, status, held_markets, -1, -total_assets_hkd FROM old_customers) delta
     GROUP BY staff_id, corp_id, channel, status, held_markets
    HAVING sum(clients) <> 0 OR sum(assets) <> 0
     ORDER BY staff_id, corp_id, channel, status, held_markets
    ON CONFLICT (staff_id, corp_id, channel, status, held_markets)
    DO UPDATE SET clients = s.clients + excluded.clients, total_assets_hkd = s.total_assets_hkd + excluded.total_assets_hkd;
  END IF;
  RETURN NULL;
END $$;
