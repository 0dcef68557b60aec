#!/usr/bin/env bash
# A streaming standby of this machine's PostgreSQL, for the benchmark's `--read-url` (docs/benchmarks.md,
# docs/deployment.md). Not for production: it trusts 127.0.0.1 for replication and keeps no archive.
#   tools/scripts/local-standby.sh start [PORT]   copy the cluster at 127.0.0.1:5432 (pg_basebackup) and start it
#   tools/scripts/local-standby.sh stop [PORT]    stop it and delete its data directory
# PostgreSQL refuses to run as root, so the standby runs as the `postgres` user, like the cluster it copies.
set -euo pipefail
action="${1:-}"
port="${2:-5433}"
primary_port="${PRIMARY_PORT:-5432}"
bin="/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -1)/bin"
data="/var/lib/postgresql/standby-$port"
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$action" in
  start)
    hba="$(psql -h 127.0.0.1 -p "$primary_port" -d postgres -Atc 'show hba_file')"
    if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$hba"; then
      echo "adding a replication entry for 127.0.0.1 to $hba"
      echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
      psql -h 127.0.0.1 -p "$primary_port" -d postgres -Atc 'select pg_reload_conf()' >/dev/null
    fi
    if [ -d "$data" ]; then echo "$data exists: stop it first ($0 stop $port)" >&2; exit 1; fi
    mkdir -p "$data" && chown postgres:postgres "$data" && chmod 700 "$data"
    echo "copying 127.0.0.1:$primary_port into $data (pg_basebackup)…"
    start=$(date +%s)
    # A replication slot of its own: the primary keeps the WAL the standby has not replayed yet, however far a bulk
    # load runs ahead of it (without one, a load outrunning wal_keep_size cut the standby off). `stop` drops it.
    slot="standby_$port"
    psql -h 127.0.0.1 -p "$primary_port" -d postgres -Atc \
      "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '$slot' and not active" >/dev/null
    as_postgres "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$data" -R -X stream -c fast \
      -C -S "$slot" -d "application_name=standby_$port"
    echo "copied in $(( $(date +%s) - start )) s ($(du -sh "$data" | cut -f1))"
    # Debian keeps a cluster's configuration outside its data directory, so pg_basebackup did not copy it:
    # the standby gets its own, with the primary's memory settings, and the primary's access rules.
    shared_buffers="$(psql -h 127.0.0.1 -p "$primary_port" -d postgres -Atc 'show shared_buffers')"
    cat >"$data/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '/tmp'
hot_standby = on
shared_buffers = '$shared_buffers'
max_connections = 200
CONF
    cp "$hba" "$data/pg_hba.conf"
    cp "$(dirname "$hba")/pg_ident.conf" "$data/pg_ident.conf" 2>/dev/null || : >"$data/pg_ident.conf"
    chown postgres:postgres "$data/postgresql.conf" "$data/pg_hba.conf" "$data/pg_ident.conf"
    as_postgres "$bin/pg_ctl" -D "$data" -l "$data/standby.log" -w -t 300 start >/dev/null
    psql -h 127.0.0.1 -p "$port" -d postgres -Atc "select 'standby on port $port, in recovery: ' || pg_is_in_recovery()"
    echo "e.g. npm run bench -- --customers N --read-url postgres://root@127.0.0.1:$port/broker_bench_N"
    ;;
  stop)
    if [ -f "$data/postmaster.pid" ]; then as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop; fi
    rm -rf "$data"
    # Its slot would keep WAL on the primary for ever.
    psql -h 127.0.0.1 -p "$primary_port" -d postgres -Atc \
      "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = 'standby_$port' and not active" >/dev/null
    ;;
  *)
    echo "usage: $0 start|stop [PORT]" >&2
    exit 2
    ;;
esac
