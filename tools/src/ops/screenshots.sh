#!/usr/bin/env bash
# npm run screenshots: rewrites the committed docs/screenshots/ on purpose (README, "Screenshots").
# Every process of the run — vitest's workers, the server, PGlite (in-process, so its now() too), the
# emulator and Chromium — sees the same fixed day through libfaketime, so a screen that shows dates
# draws the same dates on any day. The run starts at 10:00 Hong Kong time on that day and its clock runs
# from there (timeouts keep working); see ADR 0021. FAKETIME_DONT_RESET: a child process continues the
# run's clock instead of starting again at 10:00, so the server, the emulator and Chromium agree on the
# time (a contact record's lock is judged by both).
set -euo pipefail
cd "$(dirname "$0")/../../.."
export SCREENSHOTS_AS_OF="${SCREENSHOTS_AS_OF:-2026-11-20}"
if ! command -v faketime >/dev/null; then
  echo "npm run screenshots needs faketime to pin the day the screens show: apt-get install faketime" >&2
  exit 1
fi
npm run build
SCREENSHOTS=docs TZ=UTC FAKETIME_DONT_RESET=1 faketime -f "@${SCREENSHOTS_AS_OF} 02:00:00" npx vitest run --project e2e "$@"
