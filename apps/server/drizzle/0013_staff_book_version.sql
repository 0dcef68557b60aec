-- A version per book (corp, staff), bumped in the writer's own transaction by every change that can
-- alter a count, sum or filter result of that manager's client list: the server caches a search's
-- total and a stat under the version it read before computing them (manage.repository.ts), and
-- serves them only while the version is unchanged. The version lives here, not in a process, so
-- every replica sees a write at its commit. Rows are never deleted: a version only grows (a
-- missing row reads as 0, and the first bump inserts 1).
CREATE TABLE IF NOT EXISTS "staff_book_version" (
	"corp_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "staff_book_version_corp_id_staff_id_pk" PRIMARY KEY("corp_id","staff_id")
);--> statement-breakpoint
-- customer: every column the list's filters and keyword read (channel, status, names, phone digits,
-- identity-document tail, total assets, open date, held markets) and the staff it belongs to. Any
-- update bumps, whatever it changed: cheaper to recount once than to list columns a later filter
-- may start reading. A reassignment bumps both books (old and new rows).
CREATE OR REPLACE FUNCTION staff_book_version_bump_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT DISTINCT corp_id, staff_id, 1 FROM new_customers ORDER BY corp_id, staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT DISTINCT corp_id, staff_id, 1 FROM old_customers ORDER BY corp_id, staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
  ELSE
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT corp_id, staff_id, 1
      FROM (SELECT corp_id, staff_id FROM new_customers UNION SELECT corp_id, staff_id FROM old_customers) books
     ORDER BY corp_id, staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- kyc_binding (the kycBound filter) and account (the keyword's account-number arm) point at a
-- customer: the customer's book is bumped. Both triggers name their transition tables alike.
CREATE OR REPLACE FUNCTION staff_book_version_bump_by_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT DISTINCT c.corp_id, c.staff_id, 1 FROM customer c WHERE c.id IN (SELECT customer_id FROM new_rows)
     ORDER BY c.corp_id, c.staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT DISTINCT c.corp_id, c.staff_id, 1 FROM customer c WHERE c.id IN (SELECT customer_id FROM old_rows)
     ORDER BY c.corp_id, c.staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
  ELSE
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT DISTINCT c.corp_id, c.staff_id, 1 FROM customer c
     WHERE c.id IN (SELECT customer_id FROM new_rows UNION SELECT customer_id FROM old_rows)
     ORDER BY c.corp_id, c.staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every book moves on.
CREATE OR REPLACE FUNCTION staff_book_version_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE staff_book_version SET version = version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customer_book_version_insert AFTER INSERT ON customer
  REFERENCING NEW TABLE AS new_customers FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_customers();
--> statement-breakpoint
CREATE TRIGGER customer_book_version_update AFTER UPDATE ON customer
  REFERENCING OLD TABLE AS old_customers NEW TABLE AS new_customers FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_customers();
--> statement-breakpoint
CREATE TRIGGER customer_book_version_delete AFTER DELETE ON customer
  REFERENCING OLD TABLE AS old_customers FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_customers();
--> statement-breakpoint
CREATE TRIGGER customer_book_version_truncate AFTER TRUNCATE ON customer
  FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_all();
--> statement-breakpoint
CREATE TRIGGER kyc_binding_book_version_insert AFTER INSERT ON kyc_binding
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_by_customer();
--> statement-breakpoint
CREATE TRIGGER kyc_binding_book_version_update AFTER UPDATE ON kyc_binding
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_by_customer();
--> statement-breakpoint
CREATE TRIGGER kyc_binding_book_version_delete AFTER DELETE ON kyc_binding
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_by_customer();
--> statement-breakpoint
CREATE TRIGGER kyc_binding_book_version_truncate AFTER TRUNCATE ON kyc_binding
  FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_all();
--> statement-breakpoint
CREATE TRIGGER account_book_version_insert AFTER INSERT ON account
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_by_customer();
--> statement-breakpoint
CREATE TRIGGER account_book_version_update AFTER UPDATE ON account
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_by_customer();
--> statement-breakpoint
CREATE TRIGGER account_book_version_delete AFTER DELETE ON account
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_by_customer();
--> statement-breakpoint
CREATE TRIGGER account_book_version_truncate AFTER TRUNCATE ON account
  FOR EACH STATEMENT EXECUTE FUNCTION staff_book_version_bump_all();
