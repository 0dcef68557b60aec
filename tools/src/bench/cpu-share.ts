import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** CPU time of a process in seconds from /proc (utime + stime, in clock ticks of 1/100 s); 0 once gone. */
function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function postgresCpuByPid(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) continue;
    } catch {
      continue;
    }
    byPid.set(Number(entry), processCpuSeconds(Number(entry)));
  }
  return byPid;
}

const ownCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** Linux only (reads /proc); elsewhere `measure` runs the cell and reports no share. */
export const canMeasureCpuShare = () => existsSync('/proc/self/stat');

/** Runs `cell` and apportions the CPU used meanwhile; `localPostgres`: PostgreSQL's processes on this machine serve it. */
export async function measureCpuShare<T extends { requests: number }>(
  cell: () => Promise<T>,
  options: { serverCpuSeconds: () => number; localPostgres: boolean },
) {
  if (!canMeasureCpuShare()) return { result: await cell(), cpu: null };
  const before = {
    server: options.serverCpuSeconds(),
    postgres: options.localPostgres ? postgresCpuByPid() : null,
    own: ownCpuSeconds(),
    at: performance.now(),
  };
  const result = await cell();
  const seconds = (performance.now() - before.at) / 1000;
  const server = options.serverCpuSeconds() - before.server;
  const own = ownCpuSeconds() - before.own;
  let postgres: number | null = null;
  if (before.postgres) {
    postgres = 0;
    // Backends that started during the cell count from zero; one that ended takes its time with it (rare: the pool keeps them).
    for (const [pid, seconds_] of postgresCpuByPid()) postgres += Math.max(0, seconds_ - (before.postgres.get(pid) ?? 0));
  }
  const perRequest = (cpuSeconds: number) => (result.requests > 0 ? (cpuSeconds * 1000) / result.requests : 0);
  return {
    result,
    // Where the cell's CPU went, in ms per completed request: the three share the cores, so this explains a latency.
    cpu: {
      serverMs: perRequest(server),
      /** null when PostgreSQL is not a local process (or the engine is PGlite, inside the server). */
      postgresMs: postgres === null ? null : perRequest(postgres),
      loadGeneratorMs: perRequest(own),
      /** Average number of cores the three kept busy during the cell (2 = the whole machine). */
      coresBusy: (server + own + (postgres ?? 0)) / seconds,
    },
  };
}

export type CpuShare = NonNullable<Awaited<ReturnType<typeof measureCpuShare>>['cpu']>;
