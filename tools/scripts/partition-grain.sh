#!/usr/bin/env bash
# What the partition grain costs a client page that reads all of a client's history (ADR 0053, Consequences):
#   tools/scripts/partition-grain.sh [DATABASE] [SECONDS]
# In a loaded benchmark database (default broker_bench: `npm run bench -- --dataset-only`), copies `trade` three
# ways — quarters, years, one plain table — with the same indexes as the monthly table, then runs the trade page's
# totals statement (one client, no date range, prepared, generic plan as the app runs it) with pgbench at 1 and 16
# clients against each (after an unmeasured warm-up run), and prints the transactions per second and which waits the 16 clients spent time in.
# Drops its copies when it ends. Needs the machine to itself while it measures (about 5 minutes at 1M customers).
set -euo pipefail
database="${1:-broker_bench}"
seconds="${2:-15}"
bin="${POSTGRES_BIN_DIR:-/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -1)/bin}"
psql_db() { psql -h 127.0.0.1 -d "$database" -v ON_ERROR_STOP=1 -q "$@"; }
work="$(mktemp -d)"
cleanup() {
  psql_db -c 'drop table if exists grain_quarter, grain_year, grain_flat' >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

customers="$(psql_db -Atc 'select max(id) from customer')"
[ -n "$customers" ] || { echo "$database holds no customers: load one with npm run bench -- --dataset-only" >&2; exit 1; }

# A copy of `trade` partitioned by `step` (Hong Kong midnight bounds, as migration 0034 draws months): from the
# `unit` (quarter, year) of the first trade to one `step` past the last, as the monthly table keeps months ahead.
partitioned_copy() {
  local name="$1" step="$2" unit="$3"
  psql_db <<SQL
create table $name (like trade) partition by range (traded_at);
do \$\$
declare
  bound date := (select date_trunc('$unit', min(traded_at) at time zone 'Asia/Hong_Kong')::date from trade);
  last_day date := (select (max(traded_at) at time zone 'Asia/Hong_Kong')::date + interval '$step' from trade);
begin
  while bound <= last_day loop
    execute format('create table %I partition of $name for values from (%L) to (%L)', '${name}_' || to_char(bound, 'YYYY_MM'),
                   bound::timestamp at time zone 'Asia/Hong_Kong', (bound + interval '$step')::timestamp at time zone 'Asia/Hong_Kong');
    bound := bound + interval '$step';
  end loop;
end \$\$;
create table ${name}_default partition of $name default;
SQL
}

echo "copying trade ($(psql_db -Atc 'select count(*) from trade') rows, $(psql_db -Atc "select count(*) from pg_inherits where inhparent = 'trade'::regclass") partitions) three ways…"
partitioned_copy grain_quarter '3 months' quarter
partitioned_copy grain_year '1 year' year
psql_db -c 'create table grain_flat (like trade)'
for table in grain_quarter grain_year grain_flat; do
  psql_db <<SQL
insert into $table select * from trade;
alter table $table add primary key (id, traded_at);
create index on $table (customer_id, traded_at desc, id desc);
create unique index on $table (account_id, external_ref, traded_at) where external_ref is not null;
vacuum analyze $table;
SQL
done

# The trade page's totals as clientQueries.trades writes them, without the staff scope (pgbench draws any client).
cat >"$work/statement.sql" <<'SQL'
\set id random(1, :customers)
select t.side, t.currency, count(*)::int, sum(t.amount)::float8, sum(t.fee)::float8
  from TABLE t join customer c on c.id = t.customer_id join security s on s.id = t.security_id
 where c.id = :id group by t.side, t.currency;
SQL

export PGOPTIONS='-c plan_cache_mode=force_generic_plan'
printf '%-14s %11s %8s %12s  %s\n' table partitions c1_tps c16_tps 'waits seen at c16 (samples)'
for table in trade grain_quarter grain_year grain_flat; do
  sed "s/TABLE/$table/" "$work/statement.sql" >"$work/$table.sql"
  partitions="$(psql_db -Atc "select count(*) from pg_inherits where inhparent = '$table'::regclass")"
  run() { "$bin/pgbench" -h 127.0.0.1 -n -M prepared -D customers="$customers" -f "$work/$table.sql" -c "$1" -j 2 -T "$seconds" "$database" 2>&1 |
    sed -n 's/^tps = \([0-9.]*\).*/\1/p'; }
  # Unmeasured first: the copies were just written and sit in the cache, the monthly table may not; each table
  # is measured warm (the draws themselves are never-repeated clients: one in 1M, about 80,000 a run).
  run 2 >/dev/null
  single="$(run 1)"
  run 16 >"$work/c16" &
  sleep 2
  waits="$(for _ in $(seq 1 30); do
    PGOPTIONS='' psql_db -Atc "select coalesce(wait_event_type || ':' || wait_event, 'CPU') from pg_stat_activity
                                where datname = current_database() and state = 'active' and pid <> pg_backend_pid()"
    sleep 0.2
  done | sort | uniq -c | sort -rn | head -3 | awk '{printf "%s %s  ", $2, $1}')"
  wait
  printf '%-14s %11s %8.0f %12.0f  %s\n' "$table" "$partitions" "$single" "$(cat "$work/c16")" "$waits"
done
