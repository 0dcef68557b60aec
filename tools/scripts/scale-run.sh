#!/usr/bin/env bash
# The measurement at scale, at one size, start to finish, as docs/benchmarks/scale.md describes it:
#   tools/scripts/scale-run.sh CUSTOMERS [BASE_RESULTS]
# makes a streaming standby of 127.0.0.1:5432 on port 5433 if there is none (before the load, so it streams the
# load), loads the dataset (reused if already there), measures it with page reads on the standby, and writes the
# growth table against BASE_RESULTS (default: the committed 1M run, docs/benchmarks/scale/1000000.json) into
# docs/benchmarks/scale.md. Needs about 2 × 4.3 GB of free disk per million customers, and the machine to itself while
# it measures. Leaves the database and the standby in place (tools/scripts/local-standby.sh stop 5433; dropdb).
set -euo pipefail
cd "$(dirname "$0")/../.."
customers="${1:?usage: $0 CUSTOMERS [BASE_RESULTS]}"
base="${2:-docs/benchmarks/scale/1000000.json}"
out="/tmp/bench-$customers"
database="broker_bench"
[ "$customers" = 1000000 ] || database="broker_bench_$customers"

need_gb=$(( customers * 9 / 1000000 + 5 ))
free_gb=$(df -BG --output=avail / | tail -1 | tr -dc '0-9')
if [ "$free_gb" -lt "$need_gb" ]; then
  echo "about $need_gb GB of free disk needed (primary, standby and WAL), $free_gb GB free" >&2
  exit 1
fi
if ! pg_isready -q -h 127.0.0.1 -p 5433; then tools/scripts/local-standby.sh start 5433; fi
npm run bench -- --dataset-only --customers "$customers"
npm run bench -- --engines postgres --customers "$customers" --no-lighthouse \
  --read-url "postgres://root@127.0.0.1:5433/$database" --out "$out"
npm run bench:scale -- "$base" "$out/benchmarks/results.json"
