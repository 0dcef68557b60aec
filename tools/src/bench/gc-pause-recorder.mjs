// Records every garbage collection of the process it is imported into, one JSON line each
// ({ t: epoch ms at its start, d: duration in ms, k: kind — 1 minor, 4 major, 8 incremental, 16 weak callbacks })
// in $GC_PAUSE_DIR/<pid>.jsonl (default /tmp/gc-pauses). For attributing a latency stall to a GC pause:
//   BENCH_NODE_FLAGS="--import $PWD/tools/src/bench/gc-pause-recorder.mjs" npm run bench -- …   (the servers)
//   NODE_OPTIONS="--import $PWD/tools/src/bench/gc-pause-recorder.mjs" npm run bench -- …       (the load generator too)
import { appendFileSync, mkdirSync } from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';

const dir = process.env.GC_PAUSE_DIR ?? '/tmp/gc-pauses';
mkdirSync(dir, { recursive: true });
const file = `${dir}/${process.pid}.jsonl`;
let pending = '';
const flush = () => {
  if (pending) appendFileSync(file, pending);
  pending = '';
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pending += `${JSON.stringify({ t: Math.round(performance.timeOrigin + entry.startTime), d: +entry.duration.toFixed(2), k: entry.detail?.kind })}\n`;
  }
  if (pending.length > 4096) flush();
}).observe({ entryTypes: ['gc'] });
setInterval(flush, 1000).unref();
process.on('exit', flush);
