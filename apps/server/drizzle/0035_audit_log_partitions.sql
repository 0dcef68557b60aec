-- The audit log partitioned by month (issue 25.2, ADR 0053, docs/data-model.md "Partitions"), as migration 0034 did
-- for trade, money_movement and stock_transfer: audit_log is range-partitioned by `at`, one partition per Hong Kong
-- calendar month plus a DEFAULT partition. Every write staff make adds a row and none is ever deleted, so it grows
-- with time for as long as the firm runs; partitioned, a retention rule can detach a whole old month, and reads
-- bounded in time (the MOT rule that looks for a client's particulars changed in the days before a withdrawal)
-- read only their months. It can be partitioned where mot_event and contact_record cannot: nothing references
-- audit_log.id and its only unique key is the primary key, which becomes (id, at).
--
-- broker_month_partition and broker_ensure_month_partitions (migration 0034) find every range-partitioned table
-- themselves, so the daily job creates audit_log's months from now on. The one-off conversion below is 0034's,
-- created again because 0034 dropped it: rename, a partitioned table LIKE the old one (columns, defaults; the id
-- sequence re-owned so it outlives the old table), the months that hold rows and the default, the rows copied
-- before any index exists, then the keys, indexes and foreign keys built once per partition.
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
SELECT broker_partition_by_month_once('audit_log', 'at');--> statement-breakpoint
DROP FUNCTION broker_partition_by_month_once(text, text);--> statement-breakpoint
-- A partitioned table's primary key must contain the partition key: the id stays unique by its sequence, and
-- nothing references it (the audit trail's cursor finds its row by id alone, in every month's primary key).
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id", "at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_staff_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_kyc_customer_idx" ON "audit_log" USING btree ((coalesce("after", "before") ->> 'customerId'), "at" DESC, "id" DESC) WHERE "entity" = 'kyc_binding';--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_staff_id_staff_id_fk" FOREIGN KEY ("actor_staff_id") REFERENCES "public"."staff"("id");--> statement-breakpoint
-- The coming months exist before the first write into them; autovacuum never analyzes a partitioned parent.
SELECT broker_ensure_month_partitions(3);--> statement-breakpoint
ANALYZE "audit_log";
