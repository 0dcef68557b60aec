import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApp, makeEnv, openDatabase, type DatabaseHandle } from '@broker/server';
import { signInAs, startServerProcess, type ServerProcess } from '@broker/server/testing';
import { preparePgliteDataset, preparePostgresDataset, measureMotSweeps } from './datasets';
import { assertErrorCodesAreHttpErrors, driveHttp } from './http-load';
import { measureCpuShare, type CpuShare } from './cpu-share';
import { callEndpoint, wireRequest } from './http-request';
import { explainCaptured } from './explain';
import { describeMachine } from './machine';
import { isFullRun, parseBenchOptions, USAGE, UsageError, type BenchOptions } from './options';
import {
  engineLabel,
  formatMs,
  renderConsoleTable,
  renderGeneratedSection,
  renderP95Chart,
  medianRun,
  spliceGenerated,
  type BenchReport,
  type DatasetSummary,
  type LighthouseOutcome,
} from './report';
import { buildScenarios, pickBenchStaff, writeServiceRecords, type BenchStaff, type Scenario } from './scenarios';
import { createStatementRecorder, replaySql, sqlRunnerFor, type CapturedRequest } from './sql-replay';
import { apiOverSql, p95Verdict, ratioVerdict, type CellResult, type Engine, type Measurement, type MotSweepFigures } from './targets';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LIGHTHOUSE_MODULE = fileURLToPath(new URL('./lighthouse.ts', import.meta.url));

const log = (line: string) => console.log(line);

/** The contract of `lighthouse.ts` (owned by the front end): mobile performance of the client list. */
type RunLighthouse = (options: {
  baseUrl: string;
  wecomBaseUrl?: string;
  staffUserId: string;
}) => Promise<{ score: number; metrics: Record<string, number>; reportPath?: string }>;

async function loadLighthouse(): Promise<RunLighthouse | string> {
  if (!existsSync(LIGHTHOUSE_MODULE)) return `${relative(REPO_ROOT, LIGHTHOUSE_MODULE)} is not there`;
  try {
    // A computed specifier: the module is optional, so the type checker must not require it.
    const module = (await import(pathToFileURL(LIGHTHOUSE_MODULE).href)) as { runLighthouse?: unknown; lighthouseUnavailable?: unknown };
    const unavailable = typeof module.lighthouseUnavailable === 'function' ? (module.lighthouseUnavailable as () => string | null)() : null;
    if (unavailable) return unavailable;
    return typeof module.runLighthouse === 'function' ? (module.runLighthouse as RunLighthouse) : 'lighthouse.ts exports no runLighthouse';
  } catch (error) {
    return `lighthouse.ts failed to load: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function buildWebApp(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'broker-bench-web-'));
  log(`building the web app into ${outDir} for Lighthouse…`);
  const build = spawnSync('npm', ['run', 'build', '-w', '@broker/web', '--', '--outDir', outDir, '--emptyOutDir'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`);
  return outDir;
}

/** Where the cells stand: `[12/144, ~3.5 min of cells left]` (from the configured cell length; setup comes on top). */
function progressTracker(total: number, cellMs: number) {
  let done = 0;
  return () => {
    done += 1;
    return `[${String(done).padStart(String(total).length)}/${total}, ~${(((total - done) * cellMs) / 60_000).toFixed(1)} min of cells left]`;
  };
}

const describeCpuShare = (cpu: CpuShare) =>
  `server ${cpu.serverMs.toFixed(2)} ms, PostgreSQL ${cpu.postgresMs === null ? 'n/a' : `${cpu.postgresMs.toFixed(2)} ms`}, ` +
  `load generator ${cpu.loadGeneratorMs.toFixed(2)} ms; ${cpu.coresBusy.toFixed(2)} cores busy`;

/** PostgreSQL's processes can be read from /proc only when it runs on this machine. */
const isLocalDatabase = (url: string) => ['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(url).hostname);

const describeMeasurement = (measurement: Measurement) =>
  `p50 ${formatMs(measurement.latency.p50)} p95 ${formatMs(measurement.latency.p95)} p99 ${formatMs(measurement.latency.p99)} ms, ` +
  `${measurement.requestsPerSecond.toFixed(0)} req/s${measurement.errors ? `, ${measurement.errors} ERRORS (${measurement.errorSamples.join('; ')})` : ''}`;

interface EngineRun {
  dataset: DatasetSummary;
  sweep: MotSweepFigures;
  cells: CellResult[];
  lighthouse: LighthouseOutcome | null;
}

/**
 * The app in this process, on a handle that reports every statement: what each call runs, with
 * the service records the history search needs written first through the API itself.
 */
async function captureScenarios(
  handle: DatabaseHandle,
  recorder: ReturnType<typeof createStatementRecorder>,
  staff: BenchStaff,
  options: BenchOptions,
): Promise<{ scenarios: Scenario[]; captured: Map<string, CapturedRequest[]> }> {
  const app = await buildApp({
    env: makeEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST_DIR: '', MOT_SWEEP_INTERVAL_MS: '0' }),
    database: handle,
    ownsDatabase: false,
    logger: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const auth = await signInAs(baseUrl, staff.userid);
    const written = await writeServiceRecords(handle, staff, Math.min(200, options.paramsPerEndpoint * 2), baseUrl, auth.headers);
    log(`handled ${written} MOT events through the API (service records for the history search)`);
    // The sweep just rewrote mot_event; autovacuum would vacuum and analyze it within a minute or
    // so. Doing it now keeps the measured plans from depending on whether that happened yet (stale
    // statistics estimate 7 pending events where there are 18,000; without the visibility map
    // the to-do list's index-only scan visits the heap for every entry).
    await handle.query('vacuum (analyze) mot_event, service_record');
    const scenarios = (await buildScenarios(handle, staff, options.paramsPerEndpoint)).filter((scenario) =>
      (options.scenarios as string[]).includes(scenario.name),
    );
    const captured = new Map<string, CapturedRequest[]>();
    for (const scenario of scenarios) {
      const requests: CapturedRequest[] = [];
      for (const input of scenario.inputs) {
        const { request } = await recorder.record(() => callEndpoint(baseUrl, wireRequest(scenario.endpoint, input, auth.headers)));
        requests.push(request);
      }
      captured.set(scenario.name, requests);
      const statements = requests.reduce((sum, request) => sum + request.flat().length, 0) / requests.length;
      const waves = requests.reduce((sum, request) => sum + request.length, 0) / requests.length;
      log(
        `  captured ${scenario.name}: ${requests.length} calls, ${statements.toFixed(1)} statements in ${waves.toFixed(1)} round trips each`,
      );
    }
    return { scenarios, captured };
  } finally {
    await app.close();
  }
}

/**
 * One database end to end: prepare the data, time the MOT sweep, capture every endpoint's SQL
 * in-process and replay it alone, then load the real server process over HTTP.
 */
async function runEngine(
  engine: Engine,
  options: BenchOptions,
  next: () => string,
  lighthouse: { run: RunLighthouse; webDist: string } | null,
  outDir: string,
): Promise<EngineRun> {
  const customers = engine === 'postgres' ? options.customers : options.pgliteCustomers;
  const identity = { customers, seed: options.seed, asOf: options.asOf, staff: options.staff };
  const label = engineLabel(engine, customers);
  log(`\n━━ ${label} ━━`);
  let provenance: string;
  let seedMs: number | null;
  let pgliteRoot: string | null = null;
  let connection: { url: string } | { pgliteDir: string };
  if (engine === 'postgres') {
    const prepared = await preparePostgresDataset(options.databaseUrl, identity, { reseed: options.reseed, log });
    provenance = { reuse: 'reused', adopt: 'adopted', seed: 'loaded' }[prepared.decision.action] + `: ${prepared.decision.reason}`;
    seedMs = prepared.seedMs;
    connection = { url: options.databaseUrl };
  } else {
    pgliteRoot = mkdtempSync(join(tmpdir(), 'broker-bench-pglite-'));
    const pgliteDir = join(pgliteRoot, 'pglite');
    log(`loading ${customers.toLocaleString('en')} customers into a fresh PGlite at ${pgliteDir}`);
    seedMs = await preparePgliteDataset(pgliteDir, identity, log);
    provenance = 'loaded into a fresh on-disk PGlite';
    connection = { pgliteDir };
  }

  // PGlite allows one process at a time: its SQL is measured before the server starts. PostgreSQL
  // is measured cell by cell, SQL right before API, so both see the same machine conditions.
  const interleave = engine === 'postgres';
  const recorder = createStatementRecorder();
  let handle: DatabaseHandle | null = null;
  let server: ServerProcess | null = null;
  try {
    handle = await openDatabase({ ...connection, poolMax: options.poolMax, onQuery: recorder.observe });
    log('MOT daily sweep: first (from no events), then a re-run…');
    const sweep = await measureMotSweeps(handle, engine, customers, options.asOf);
    log(
      `  first ${(sweep.firstMs / 1000).toFixed(1)} s (${sweep.firstInserted.toLocaleString('en')} events), re-run ${(sweep.rerunMs / 1000).toFixed(1)} s`,
    );
    const staff = await pickBenchStaff(handle);
    log(`signing in as ${staff.userid} (${staff.customers.toLocaleString('en')} customers, the biggest emulator book)`);
    const { scenarios, captured } = await captureScenarios(handle, recorder, staff, options);
    if (options.explain) {
      const { markdown, seqScans } = await explainCaptured(handle, captured, 3);
      const planPath = join(outDir, 'benchmarks', `explain-${engine}.md`);
      mkdirSync(dirname(planPath), { recursive: true });
      writeFileSync(planPath, `# Query plans: ${label}\n\nEXPLAIN ANALYZE of the first calls of each endpoint.\n\n${markdown}`);
      log(
        `query plans: ${planPath}${seqScans.length ? `; SEQUENTIAL SCANS: ${seqScans.join('; ')}` : '; no sequential scan on customer, trade or money_movement'}`,
      );
    }

    const runner = sqlRunnerFor(handle);
    const measureSql = async (scenario: Scenario, concurrency: number) => {
      const measurement = await replaySql(runner, captured.get(scenario.name)!, {
        concurrency,
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
      });
      log(`  ${next()} ${scenario.name.padEnd(18)} c${String(concurrency).padEnd(3)} SQL ${describeMeasurement(measurement)}`);
      return measurement;
    };
    const sqlResults = new Map<string, Measurement>();
    if (!interleave) {
      log('SQL alone (the captured statements replayed, same pool size and concurrency):');
      for (const scenario of scenarios)
        for (const concurrency of options.concurrencies)
          sqlResults.set(`${scenario.name}@${concurrency}`, await measureSql(scenario, concurrency));
      await handle.close();
      handle = null;
    }

    log(
      interleave
        ? 'SQL alone (captured statements replayed, same pool size and concurrency), then the API over HTTP (server process, autocannon):'
        : 'API over HTTP (the server in its own process, autocannon):',
    );
    server = await startServerProcess({
      env: {
        ...('url' in connection ? { DATABASE_URL: connection.url } : { PGLITE_DIR: connection.pgliteDir }),
        DATABASE_POOL_MAX: String(options.poolMax),
        // Production's default: the per-request log lines are part of what a request costs.
        LOG_LEVEL: 'info',
        WECOM_MODE: 'emulator',
        WEB_DIST_DIR: lighthouse?.webDist ?? '',
      },
      startTimeoutMs: 180_000,
    });
    const cells: CellResult[] = [];
    const auth = await signInAs(server.baseUrl, staff.userid);
    for (const scenario of scenarios) {
      const requests = scenario.inputs.map((input) => wireRequest(scenario.endpoint, input, auth.headers));
      // Every parameter set must succeed (code "0") before its figures mean anything.
      for (const request of requests) await callEndpoint(server.baseUrl, request);
      for (const concurrency of options.concurrencies) {
        const sql = interleave ? await measureSql(scenario, concurrency) : sqlResults.get(`${scenario.name}@${concurrency}`)!;
        // Warm-up apart, so the CPU share covers the measured requests alone.
        if (options.warmupMs > 0) await driveHttp(server.baseUrl, requests, { concurrency, durationMs: options.warmupMs, warmupMs: 0 });
        const { result: api, cpu } = await measureCpuShare(
          () => driveHttp(server!.baseUrl, requests, { concurrency, durationMs: options.durationMs, warmupMs: 0 }),
          { serverCpuSeconds: () => server!.cpuSeconds(), localPostgres: engine === 'postgres' && isLocalDatabase(options.databaseUrl) },
        );
        const cell: CellResult = { engine, endpoint: scenario.name, group: scenario.group, concurrency, api, sql, cpu };
        cells.push(cell);
        const verdicts = [
          p95Verdict(cell) ? `p95 ${p95Verdict(cell)}` : '',
          `API/SQL ${apiOverSql(cell).toFixed(2)}× ${ratioVerdict(cell)}`,
        ]
          .filter(Boolean)
          .join(', ');
        log(`  ${next()} ${scenario.name.padEnd(18)} c${String(concurrency).padEnd(3)} API ${describeMeasurement(api)} — ${verdicts}`);
        if (cpu) log(`      CPU per request: ${describeCpuShare(cpu)}`);
      }
    }
    let lighthouseOutcome: LighthouseOutcome | null = null;
    if (lighthouse) {
      log('Lighthouse (mobile) on the client list…');
      try {
        const runs = [];
        for (let run = 0; run < options.lighthouseRuns; run++) {
          runs.push(await lighthouse.run({ baseUrl: server.baseUrl, staffUserId: staff.userid }));
          log(`  run ${run + 1} of ${options.lighthouseRuns}: score ${runs.at(-1)!.score}`);
        }
        const result = medianRun(runs);
        lighthouseOutcome = {
          engine,
          score: result.score,
          metrics: result.metrics,
          reportPath: result.reportPath,
          runScores: runs.map((run) => run.score),
        };
        log(`  median score ${result.score}`);
      } catch (error) {
        lighthouseOutcome = { engine, skipped: `it failed: ${error instanceof Error ? error.message : String(error)}` };
        log(`  Lighthouse ${lighthouseOutcome.skipped}`);
      }
    }
    log(`\n${label}\n${renderConsoleTable(cells)}`);
    return {
      dataset: { engine, customers, provenance, seedMs, staffUserId: staff.userid, staffCustomers: staff.customers },
      sweep,
      cells,
      lighthouse: lighthouseOutcome,
    };
  } finally {
    await server?.stop();
    await handle?.close();
    if (pgliteRoot && !options.keepPglite) rmSync(pgliteRoot, { recursive: true, force: true });
    else if (pgliteRoot) log(`kept PGlite at ${pgliteRoot}`);
  }
}

/** docs/ for a full run; anything else must not overwrite the committed figures. */
const outDirFor = (options: BenchOptions) =>
  options.outDir ?? (isFullRun(options) ? join(REPO_ROOT, 'docs') : mkdtempSync(join(tmpdir(), 'broker-bench-report-')));

function writeReport(report: BenchReport, outDir: string): string {
  const docPath = join(outDir, 'benchmarks.md');
  const chartPath = join(outDir, 'benchmarks', 'p95-c16.svg');
  mkdirSync(dirname(chartPath), { recursive: true });
  const labels = Object.fromEntries(report.datasets.map((dataset) => [dataset.engine, engineLabel(dataset.engine, dataset.customers)]));
  writeFileSync(chartPath, renderP95Chart(report.cells, labels));
  writeFileSync(join(outDir, 'benchmarks', 'results.json'), JSON.stringify(report, null, 2) + '\n');
  // A report outside docs/ starts from the committed document, so it reads the same.
  const committed = join(REPO_ROOT, 'docs', 'benchmarks.md');
  const existing = existsSync(docPath) ? readFileSync(docPath, 'utf8') : null;
  const template = existsSync(committed)
    ? readFileSync(committed, 'utf8')
    : '# Benchmarks\n\n## Changes and before/after\n\n- (to be filled in)\n';
  writeFileSync(docPath, spliceGenerated(existing, renderGeneratedSection(report, 'benchmarks/p95-c16.svg'), template));
  return docPath;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    log(USAGE);
    return;
  }
  let options: BenchOptions;
  try {
    options = parseBenchOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    // parseArgs reports unknown flags as a TypeError (ERR_PARSE_ARGS_UNKNOWN_OPTION).
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  assertErrorCodesAreHttpErrors();
  const startedAt = new Date();
  const outDir = outDirFor(options);
  const cellsTotal = options.engines.length * options.scenarios.length * options.concurrencies.length * 2;
  log(
    `Benchmark: ${options.engines.map((engine) => engineLabel(engine, engine === 'postgres' ? options.customers : options.pgliteCustomers)).join(' and ')}; ` +
      `${options.scenarios.length} endpoints × concurrency ${options.concurrencies.join('/')}; ${cellsTotal} cells of ${(options.warmupMs + options.durationMs) / 1000} s` +
      `${options.quick ? ' (quick)' : ''}`,
  );

  let lighthouse: { run: RunLighthouse; webDist: string } | null = null;
  let lighthouseSkipped: string | null = null;
  if (!options.lighthouse) lighthouseSkipped = '--no-lighthouse';
  else if (options.quick && !options.webDist) lighthouseSkipped = 'quick run; pass --web-dist DIR to include it';
  else {
    const loaded = await loadLighthouse();
    if (typeof loaded === 'string') lighthouseSkipped = loaded;
    else {
      try {
        lighthouse = { run: loaded, webDist: options.webDist ?? buildWebApp() };
      } catch (error) {
        lighthouseSkipped = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      }
    }
  }
  if (lighthouseSkipped) log(`Lighthouse: skipped (${lighthouseSkipped})`);
  // Once, on the last database: PostgreSQL when it is in the run (the data a real deployment has).
  const lighthouseEngine = options.engines.includes('postgres') ? 'postgres' : options.engines[0];

  const machine = await describeMachine(
    options.engines.includes('postgres') ? Object.assign(new URL(options.databaseUrl), { pathname: '/postgres' }).toString() : null,
  );
  const next = progressTracker(cellsTotal, options.warmupMs + options.durationMs);
  const runs: EngineRun[] = [];
  // PGlite first: the PostgreSQL run, with its Lighthouse pass, is the one the report leads with.
  const engineOrder: Engine[] = ['pglite', 'postgres'];
  try {
    for (const engine of engineOrder.filter((engine) => options.engines.includes(engine))) {
      runs.push(await runEngine(engine, options, next, engine === lighthouseEngine ? lighthouse : null, outDir));
    }
  } finally {
    // A web build made for this run only; one passed with --web-dist belongs to the caller.
    if (lighthouse && !options.webDist) rmSync(lighthouse.webDist, { recursive: true, force: true });
  }

  const ordered = [...runs].reverse();
  const report: BenchReport = {
    startedAt: startedAt.toISOString(),
    elapsedMs: Date.now() - startedAt.getTime(),
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    settings: {
      durationMs: options.durationMs,
      warmupMs: options.warmupMs,
      paramsPerEndpoint: options.paramsPerEndpoint,
      poolMax: options.poolMax,
      concurrencies: options.concurrencies,
    },
    machine,
    datasets: ordered.map((run) => run.dataset),
    cells: ordered.flatMap((run) => run.cells),
    sweeps: ordered.map((run) => run.sweep),
    lighthouse:
      ordered.find((run) => run.lighthouse)?.lighthouse ?? (lighthouseSkipped ? { engine: null, skipped: lighthouseSkipped } : null),
  };
  const docPath = writeReport(report, outDir);
  const errors = report.cells.reduce((sum, cell) => sum + cell.api.errors + cell.sql.errors, 0);
  log(`\nReport: ${docPath}${isFullRun(options) || options.outDir ? '' : ' (not a full run, so docs/ is left alone)'}`);
  log(`Done in ${(report.elapsedMs / 60_000).toFixed(1)} min.${errors ? ` ${errors} requests FAILED: see the errors column.` : ''}`);
  // Misses are findings; failed requests mean the figures cannot be trusted.
  if (errors) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
