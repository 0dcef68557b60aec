-- Which customers each bump of a book's version touched (ADR 0035). A process that holds a book's
-- search index in memory at version V brings it up to date by reloading the customers logged after V,
-- instead of reloading the book; it trusts the log only when every version after V is there (each
-- bump logs at least one row), and reloads the whole book otherwise. Written by the same triggers that
-- bump the version, in the writer's transaction, so the log and the version commit together.
--   customer_id null: "every customer of the book" (a TRUNCATE, or one statement that changed more
--   than 1000 of the book's customers: a bulk import reloads the book instead of logging each row).
-- Each bump deletes the book's entries more than 1000 versions old, so the log stays small without a job.
CREATE TABLE IF NOT EXISTS "staff_book_change" (
	"corp_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"version" bigint NOT NULL,
	"customer_id" bigint
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "staff_book_change_book_idx" ON "staff_book_change" USING btree ("corp_id","staff_id","version");--> statement-breakpoint
-- One bump for the rows a statement changed, given as parallel arrays (transition tables cannot be
-- passed to a function): each book touched gets its next version, and the log its customers.
CREATE OR REPLACE FUNCTION staff_book_bump(corp_ids integer[], staff_ids integer[], customer_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT DISTINCT c.corp_id, c.staff_id, c.customer_id
      FROM unnest(corp_ids, staff_ids, customer_ids) AS c(corp_id, staff_id, customer_id)),
  bumped AS (
    INSERT INTO staff_book_version AS v (corp_id, staff_id, version)
    SELECT DISTINCT corp_id, staff_id, 1 FROM changed ORDER BY corp_id, staff_id
    ON CONFLICT (corp_id, staff_id) DO UPDATE SET version = v.version + 1
    RETURNING v.corp_id, v.staff_id, v.version),
  pruned AS (
    DELETE FROM staff_book_change expired USING bumped b
     WHERE expired.corp_id = b.corp_id AND expired.staff_id = b.staff_id AND expired.version <= b.version - 1000)
  INSERT INTO staff_book_change (corp_id, staff_id, version, customer_id)
  SELECT DISTINCT b.corp_id, b.staff_id, b.version, CASE WHEN ch.n > 1000 THEN NULL ELSE ch.customer_id END
    FROM bumped b
    JOIN (SELECT corp_id, staff_id, customer_id, count(*) OVER (PARTITION BY corp_id, staff_id) AS n FROM changed) ch
      ON ch.corp_id = b.corp_id AND ch.staff_id = b.staff_id;
END $$;
--> statement-breakpoint
-- customer: the changed rows' books (a reassigned customer is logged in both: the old book drops it,
-- the new one adds it).
CREATE OR REPLACE FUNCTION staff_book_version_bump_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM staff_book_bump(array_agg(corp_id), array_agg(staff_id), array_agg(id)) FROM new_customers;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM staff_book_bump(array_agg(corp_id), array_agg(staff_id), array_agg(id)) FROM old_customers;
  ELSE
    PERFORM staff_book_bump(array_agg(corp_id), array_agg(staff_id), array_agg(id))
       FROM (SELECT corp_id, staff_id, id FROM new_customers UNION ALL SELECT corp_id, staff_id, id FROM old_customers) touched;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- kyc_binding and account rows point at a customer: that customer is logged in its book.
CREATE OR REPLACE FUNCTION staff_book_version_bump_by_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM staff_book_bump(array_agg(c.corp_id), array_agg(c.staff_id), array_agg(c.id))
       FROM customer c WHERE c.id IN (SELECT customer_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM staff_book_bump(array_agg(c.corp_id), array_agg(c.staff_id), array_agg(c.id))
       FROM customer c WHERE c.id IN (SELECT customer_id FROM old_rows);
  ELSE
    PERFORM staff_book_bump(array_agg(c.corp_id), array_agg(c.staff_id), array_agg(c.id))
       FROM customer c WHERE c.id IN (SELECT customer_id FROM new_rows UNION SELECT customer_id FROM old_rows);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every book moves on and reloads.
CREATE OR REPLACE FUNCTION staff_book_version_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH bumped AS (UPDATE staff_book_version SET version = version + 1 RETURNING corp_id, staff_id, version)
  INSERT INTO staff_book_change (corp_id, staff_id, version, customer_id)
  SELECT corp_id, staff_id, version, NULL FROM bumped;
  RETURN NULL;
END $$;
