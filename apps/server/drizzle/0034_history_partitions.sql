-- History partitioned by month (issue 25.2, ADR 0053, docs/data-model.md "Partitions"): trade (traded_at),
-- money_movement and stock_transfer (occurred_at) become range-partitioned tables, one partition per Hong Kong
-- calendar month plus a DEFAULT partition, so a page with a date range reads only its months and old months can
-- later be detached whole. mot_event and contact_record stay plain tables: their ids are referenced by foreign
-- keys (mot_event_snooze, contact_record_event, contact_record's own thread links) and their unique keys
-- (mot_event_fact_uq, contact_record_request_uq) must hold across all time, and neither can include a date.
--
-- broker_month_partition creates one month of one table: a plain table LIKE the parent, the default partition's
-- rows of that month moved into it, then ATTACH (which builds the parent's indexes and foreign keys on it, and
-- takes only SHARE UPDATE EXCLUSIVE on the parent, so reads and writes go on). Idempotent: an existing month is
-- left alone. Month bounds are Hong Kong midnights, the days every date filter of the app is written in.
CREATE OR REPLACE FUNCTION broker_month_partition(parent regclass, month date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', month::timestamp)::date;
  lower_bound timestamptz := first_day::timestamp AT TIME ZONE 'Asia/Hong_Kong';
  upper_bound timestamptz := (first_day + interval '1 month')::timestamp AT TIME ZONE 'Asia/Hong_Kong';
  parent_name text;
  parent_schema text;
  partition_name text;
  key_column text;
  default_partition regclass;
BEGIN
  SELECT c.relname, n.nspname, a.attname INTO parent_name, parent_schema, key_column
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_partitioned_table p ON p.partrelid = c.oid
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
   WHERE c.oid = parent;
  IF key_column IS NULL THEN
    RAISE EXCEPTION '% is not a table partitioned by a column', parent;
  END IF;
  partition_name := parent_name || '_p' || to_char(first_day, 'YYYY_MM');
  IF to_regclass(format('%I.%I', parent_schema, partition_name)) IS NOT NULL THEN
    RETURN false;
  END IF;
  SELECT i.inhrelid::regclass INTO default_partition
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT';
  EXECUTE format('CREATE TABLE %I.%I (LIKE %s INCLUDING DEFAULTS)', parent_schema, partition_name, parent);
  IF default_partition IS NOT NULL THEN
    -- Rows that arrived before their month existed: ATTACH would refuse the month while the default holds them.
    EXECUTE format(
      'WITH moved AS (DELETE FROM %s WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I.%I SELECT * FROM moved',
      default_partition, key_column, key_column, parent_schema, partition_name
    ) USING lower_bound, upper_bound;
  END IF;
  EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I.%I FOR VALUES FROM (%L) TO (%L)',
    parent, parent_schema, partition_name, lower_bound, upper_bound);
  RETURN true;
END
$$;--> statement-breakpoint
-- The daily job (server start and the scheduler's daily tick): for every month-partitioned table, the months from
-- `since` (default: this Hong Kong month) through `months_ahead` months after this one, and every month the
-- default partition holds rows of (moved out). Returns how many partitions it created. Replicas may run it at
-- once: the transaction-scoped advisory lock makes the second wait and then find every month there.
CREATE OR REPLACE FUNCTION broker_ensure_month_partitions(months_ahead int DEFAULT 3, since date DEFAULT NULL) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  this_month date := date_trunc('month', now() AT TIME ZONE 'Asia/Hong_Kong')::date;
  parent regclass;
  key_column text;
  default_partition regclass;
  month date;
  created int := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('broker_ensure_month_partitions'));
  FOR parent, key_column IN
    SELECT c.oid::regclass, a.attname
      FROM pg_partitioned_table p
      JOIN pg_class c ON c.oid = p.partrelid
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
     WHERE p.partstrat = 'r' AND c.relnamespace = current_schema()::regnamespace
       AND NOT c.relispartition
     ORDER BY c.relname
  LOOP
    FOR month IN
      SELECT generate_series(least(date_trunc('month', coalesce(since, this_month)::timestamp), this_month::timestamp),
                             this_month + make_interval(months => months_ahead), interval '1 month')::date
    LOOP
      IF broker_month_partition(parent, month) THEN created := created + 1; END IF;
    END LOOP;
    SELECT i.inhrelid::regclass INTO default_partition
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT';
    IF default_partition IS NOT NULL THEN
      FOR month IN EXECUTE format(
        'SELECT DISTINCT date_trunc(''month'', %I AT TIME ZONE ''Asia/Hong_Kong'')::date FROM %s ORDER BY 1',
        key_column, default_partition)
      LOOP
        IF broker_month_partition(parent, month) THEN created := created + 1; END IF;
      END LOOP;
    END IF;
  END LOOP;
  RETURN created;
END
$$;--> statement-breakpoint
-- Used by this migration only: turns a plain table into a month-partitioned one with the same columns, defaults
-- (the id sequence, whose ownership moves to the new table so it outlives the old one) and rows. The rows are
-- copied before any index exists, and the indexes are then built once per partition, which is far cheaper than
-- maintaining them row by row.
CREATE FUNCTION broker_partition_by_month_once(table_name text, key_column text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  old_name text := table_name || '_unpartitioned';
  id_sequence text := pg_get_serial_sequence(table_name, 'id');
  month date;
  index_name text;
BEGIN
  EXECUTE format('ALTER TABLE %I RENAME TO %I', table_name, old_name);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', old_name, table_name || '_pkey');
  FOR index_name IN SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = old_name::regclass LOOP
    EXECUTE format('DROP INDEX %s', index_name);
  END LOOP;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS) PARTITION BY RANGE (%I)', table_name, old_name, key_column);
  EXECUTE format('ALTER SEQUENCE %s OWNED BY %I.id', id_sequence, table_name);
  EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', table_name || '_default', table_name);
  -- The months that hold rows, not min..max: one row dated decades off must not make hundreds of empty months.
  FOR month IN EXECUTE format('SELECT DISTINCT date_trunc(''month'', %I AT TIME ZONE ''Asia/Hong_Kong'')::date FROM %I ORDER BY 1',
    key_column, old_name) LOOP
    PERFORM broker_month_partition(table_name::regclass, month);
  END LOOP;
  EXECUTE format('INSERT INTO %I SELECT * FROM %I', table_name, old_name);
  EXECUTE format('DROP TABLE %I', old_name);
END
$$;--> statement-breakpoint
SET LOCAL maintenance_work_mem = '256MB';--> statement-breakpoint
SELECT broker_partition_by_month_once('trade', 'traded_at');--> statement-breakpoint
SELECT broker_partition_by_month_once('money_movement', 'occurred_at');--> statement-breakpoint
SELECT broker_partition_by_month_once('stock_transfer', 'occurred_at');--> statement-breakpoint
DROP FUNCTION broker_partition_by_month_once(text, text);--> statement-breakpoint
-- A partitioned table's primary key and unique indexes must contain the partition key: the id stays unique by
-- its sequence, and nothing references these ids. The back office's reference is unique per account and time;
-- the importer keeps one row per reference whatever its time (tools/src/import, ADR 0053).
ALTER TABLE "trade" ADD CONSTRAINT "trade_pkey" PRIMARY KEY ("id", "traded_at");--> statement-breakpoint
CREATE INDEX "trade_customer_time_idx" ON "trade" USING btree ("customer_id","traded_at" DESC,"id" DESC);--> statement-breakpoint
CREATE UNIQUE INDEX "trade_account_ref_uq" ON "trade" USING btree ("account_id","external_ref","traded_at") WHERE external_ref is not null;--> statement-breakpoint
ALTER TABLE "trade" ADD CONSTRAINT "trade_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id");--> statement-breakpoint
ALTER TABLE "trade" ADD CONSTRAINT "trade_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id");--> statement-breakpoint
ALTER TABLE "trade" ADD CONSTRAINT "trade_security_id_security_id_fk" FOREIGN KEY ("security_id") REFERENCES "public"."security"("id");--> statement-breakpoint
ALTER TABLE "money_movement" ADD CONSTRAINT "money_movement_pkey" PRIMARY KEY ("id", "occurred_at");--> statement-breakpoint
CREATE INDEX "money_movement_customer_time_idx" ON "money_movement" USING btree ("customer_id","occurred_at" DESC,"id" DESC) INCLUDE ("amount","currency");--> statement-breakpoint
CREATE UNIQUE INDEX "money_movement_account_ref_uq" ON "money_movement" USING btree ("account_id","external_ref","occurred_at") WHERE external_ref is not null;--> statement-breakpoint
ALTER TABLE "money_movement" ADD CONSTRAINT "money_movement_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id");--> statement-breakpoint
ALTER TABLE "money_movement" ADD CONSTRAINT "money_movement_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id");--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_pkey" PRIMARY KEY ("id", "occurred_at");--> statement-breakpoint
CREATE INDEX "stock_transfer_customer_time_idx" ON "stock_transfer" USING btree ("customer_id","occurred_at" DESC,"id" DESC);--> statement-breakpoint
CREATE UNIQUE INDEX "stock_transfer_account_ref_uq" ON "stock_transfer" USING btree ("account_id","external_ref","occurred_at") WHERE external_ref is not null;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id");--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id");--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_security_id_security_id_fk" FOREIGN KEY ("security_id") REFERENCES "public"."security"("id");--> statement-breakpoint
-- The coming months exist before the first write into them; autovacuum never analyzes a partitioned parent.
SELECT broker_ensure_month_partitions(3);--> statement-breakpoint
ANALYZE "trade", "money_movement", "stock_transfer";
