CREATE TABLE "staff_book_summary" (
	"corp_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"clients" integer NOT NULL,
	"total_assets_hkd" numeric(24, 2) NOT NULL,
	CONSTRAINT "staff_book_summary_staff_id_corp_id_channel_status_pk" PRIMARY KEY("staff_id","corp_id","channel","status")
);
--> statement-breakpoint
-- Maintained by statement-level triggers with transition tables: one grouped upsert per statement
-- (a COPY of 5,000 customers or a 1,000,000-row summary refresh is one upsert, not one per row),
-- in the writer's transaction, so it is exactly as current as the customer rows themselves.
-- Rows whose deltas cancel out (a profile edit touches no counted column) are skipped, so such
-- updates take no lock on the summary. Deltas are applied in key order so two writers cannot deadlock.
CREATE OR REPLACE FUNCTION staff_book_summary_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staff_book_summary AS s (corp_id, staff_id, channel, status, clients, total_assets_hkd)
    SELECT corp_id, staff_id, channel, status, count(*), sum(total_assets_hkd)
      FROM new_customers GROUP BY staff_id, corp_id, channel, status ORDER BY staff_id, corp_id, channel, status
    ON CONFLICT (staff_id, corp_id, channel, status)
    DO UPDATE SET clients = s.clients + excluded.clients, total_assets_hkd = s.total_assets_hkd + excluded.total_assets_hkd;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO staff_book_summary AS s (corp_id, staff_id, channel, status, clients, total_assets_hkd)
    SELECT corp_id, staff_id, channel, status, -count(*), -sum(total_assets_hkd)
      FROM old_customers GROUP BY staff_id, corp_id, channel, status ORDER BY staff_id, corp_id, channel, status
    ON CONFLICT (staff_id, corp_id, channel, status)
    DO UPDATE SET clients = s.clients + excluded.clients, total_assets_hkd = s.total_assets_hkd + excluded.total_assets_hkd;
  ELSE
    INSERT INTO staff_book_summary AS s (corp_id, staff_id, channel, status, clients, total_assets_hkd)
    SELECT corp_id, staff_id, channel, status, sum(clients), sum(assets)
      FROM (SELECT corp_id, staff_id, channel, status, 1 AS clients, total_assets_hkd AS assets FROM new_customers
            UNION ALL
            SELECT corp_id, staff_id, channel, status, -1, -total_assets_hkd FROM old_customers) delta
     GROUP BY staff_id, corp_id, channel, status
    HAVING sum(clients) <> 0 OR sum(assets) <> 0
     ORDER BY staff_id, corp_id, channel, status
    ON CONFLICT (staff_id, corp_id, channel, status)
    DO UPDATE SET clients = s.clients + excluded.clients, total_assets_hkd = s.total_assets_hkd + excluded.total_assets_hkd;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION staff_book_summary_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_book_summary;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- No customer write may fall between the first fill and the triggers taking over.
LOCK TABLE customer IN SHARE MODE;
--> statement-breakpoint
CREATE TRIGGER customer_book_summary_insert AFTER INSERT ON customer
  REFERENCING NEW TABLE AS new_customers FOR EACH STATEMENT EXECUTE FUNCTION staff_book_summary_apply();
--> statement-breakpoint
CREATE TRIGGER customer_book_summary_update AFTER UPDATE ON customer
  REFERENCING OLD TABLE AS old_customers NEW TABLE AS new_customers FOR EACH STATEMENT EXECUTE FUNCTION staff_book_summary_apply();
--> statement-breakpoint
CREATE TRIGGER customer_book_summary_delete AFTER DELETE ON customer
  REFERENCING OLD TABLE AS old_customers FOR EACH STATEMENT EXECUTE FUNCTION staff_book_summary_apply();
--> statement-breakpoint
CREATE TRIGGER customer_book_summary_truncate AFTER TRUNCATE ON customer
  FOR EACH STATEMENT EXECUTE FUNCTION staff_book_summary_clear();
--> statement-breakpoint
INSERT INTO staff_book_summary (corp_id, staff_id, channel, status, clients, total_assets_hkd)
SELECT corp_id, staff_id, channel, status, count(*), sum(total_assets_hkd) FROM customer GROUP BY staff_id, corp_id, channel, status;
