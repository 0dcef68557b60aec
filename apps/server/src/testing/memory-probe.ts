/**
 * Preloaded into a server process by `startServerProcess({ memoryProbeMs })`: every so often it
 * writes one line `{"memoryProbe":{rss,heapUsed,…}}` to stderr so a soak test can see the heap, not
 * only the RSS that /proc shows. With `--expose-gc` it collects first, so `heapUsed` is live data
 * rather than a point on the allocation sawtooth. Not loaded in production.
 */
const intervalMs = Number(process.env.BROKER_MEMORY_PROBE_MS ?? 0);
const collect = (globalThis as { gc?: () => void }).gc;

if (intervalMs > 0) {
  setInterval(() => {
    collect?.();
    process.stderr.write(`${JSON.stringify({ memoryProbe: { at: Date.now(), ...process.memoryUsage() } })}\n`);
  }, intervalMs).unref();
}
