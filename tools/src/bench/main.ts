import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type DatabaseHandle } from '@broker/server';
import { debianChromiumMissing, healthDetailHeaders, signInAs, startServerProcess, type ServerProcess } from '@broker/server/testing';
import { measureDatabaseSize, measureMotSweeps, preparePgliteDataset, preparePostgresDataset } from './datasets';
import { ensureLongHistoryClient } from './long-history';
import { startCaptureApp, type CaptureApp } from './capture';
import { assertErrorCodesAreHttpErrors, driveFixedRate, driveHttp } from './http-load';
import { measureCpuShare, type CpuShare } from './cpu-share';
import { wireRequest, type EndpointInput } from './http-request';
import { explainCaptured } from './explain';
import { describeMachine } from './machine';
import type { runLighthouse } from './lighthouse';
import { isFullRun, parseBenchOptions, USAGE, UsageError, type BenchOptions } from './options';
import {
  engineLabel,
  formatMs,
  renderCellTable,
  renderFixedRateTable,
  renderGeneratedSection,
  renderP95Chart,
  medianRun,
  spliceGenerated,
  type BenchReport,
  type LighthouseOutcome,
} from './report';
import { loadBookSample } from './param-generator';
import { buildWarmScenarios, honestScenarios, pickBenchStaff, writeServiceRecords, type Scenario } from './scenarios';
import { createStatementRecorder, replaySql, sqlRunnerFor, type CapturedRequest } from './sql-replay';
import {
  apiOverSql,
  p95Verdict,
  ratioVerdict,
  TARGETS,
  type CellResult,
  type Engine,
  type FixedRateResult,
  type Measurement,
} from './targets';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const log = (line: string) => console.log(line);

type RunLighthouse = typeof runLighthouse;

/** Lighthouse and the web app it audits, or why it is skipped: loaded only when asked for (heavy; the browser may be missing). */
async function prepareLighthouse(options: BenchOptions): Promise<{ run: RunLighthouse; webDist: string } | string> {
  if (!options.lighthouse) return '--no-lighthouse';
  if (options.quick && !options.webDist) return 'quick run; pass --web-dist DIR to include it';
  const loaded = await import('./lighthouse').catch(
    (error: unknown) => `lighthouse.ts failed to load: ${error instanceof Error ? error.message : String(error)}`,
  );
  if (typeof loaded === 'string') return loaded;
  const missing = debianChromiumMissing();
  if (missing) return missing;
  try {
    return { run: loaded.runLighthouse, webDist: options.webDist ?? buildWebApp() };
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : String(error);
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

const logCpuShare = (cpu: CpuShare | null) =>
  cpu &&
  log(
    `      CPU per request: server ${cpu.serverMs.toFixed(2)} ms, PostgreSQL ${cpu.postgresMs === null ? 'n/a' : `${cpu.postgresMs.toFixed(2)} ms`}, ` +
      `load generator ${cpu.loadGeneratorMs.toFixed(2)} ms; ${cpu.coresBusy.toFixed(2)} cores busy`,
  );

/** PostgreSQL's processes can be read from /proc only when it runs on this machine. */
const isLocalDatabase = (url: string) => ['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(url).hostname);

const describeMeasurement = (measurement: Measurement) =>
  `p50 ${formatMs(measurement.latency.p50)} p95 ${formatMs(measurement.latency.p95)} p99 ${formatMs(measurement.latency.p99)} ms, ` +
  `${measurement.requestsPerSecond.toFixed(0)} req/s${measurement.errors ? `, ${measurement.errors} ERRORS (${measurement.errorSamples.join('; ')})` : ''}`;

const describeSize = (size: { databaseBytes: number; historyRows: number }) =>
  `database ${(size.databaseBytes / 1e9).toFixed(1)} GB, about ${(size.historyRows / 1e6).toFixed(1)} M history rows (trades, money movements, transfers)`;

/** A server's book-index counters, if it reports them. */
async function readBookIndex(baseUrl: string) {
  try {
    // The servers start with the suites' HEALTH_DETAIL_TOKEN (startServerProcess): the counters are /readyz's details.
    const ready = await (await fetch(`${baseUrl}/readyz`, { headers: healthDetailHeaders })).json();
    return (ready as { bookIndex?: { served: number; askedSql: number; loading: number } }).bookIndex;
  } catch {
    return undefined;
  }
}

/** The book-index counters (served, asked of SQL) summed over the replicas, or undefined when one does not report them. */
async function readIndexCounters(baseUrls: readonly string[]) {
  const each = await Promise.all(baseUrls.map((baseUrl) => readBookIndex(baseUrl)));
  if (each.some((counters) => !counters)) return undefined;
  const sum = (key: 'served' | 'askedSql') => each.reduce((total, counters) => total + counters![key], 0);
  return { served: sum('served'), askedSql: sum('askedSql') };
}

/** Waits until no book index is loading (ADR 0035), so a cell measures a running server, not its first seconds. */
export async function settleBookIndexes(baseUrl: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const counters = await readBookIndex(baseUrl);
    if (!counters || counters.loading === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`book indexes still loading after ${timeoutMs / 1000} s at ${baseUrl}`);
}

/** Of the searches and stats between two readings, the share answered from the book indexes. */
async function withIndexUse<T>(baseUrls: readonly string[], measure: () => Promise<T>): Promise<{ result: T; indexed: string }> {
  const before = await readIndexCounters(baseUrls);
  const result = await measure();
  const after = await readIndexCounters(baseUrls);
  if (!before || !after) return { result, indexed: '' };
  const served = after.served - before.served;
  const asked = served + after.askedSql - before.askedSql;
  return { result, indexed: asked > 0 ? `; book index ${((served / asked) * 100).toFixed(0)}% of ${asked}` : '' };
}

/** A cell measured over HTTP whose statements are still to be captured (what its warm-up sent: mirrored) and replayed. */
interface PendingSql {
  scenario: Scenario;
  concurrency: number;
  warmup: EndpointInput[];
  sent: EndpointInput[];
  cell: Omit<CellResult, 'sql'>;
}

/** One database end to end: the data, the MOT sweep, the server process over HTTP, then each cell's SQL replayed alone. */
async function runEngine(
  engine: Engine,
  options: BenchOptions,
  next: () => string,
  lighthouse: { run: RunLighthouse; webDist: string } | null,
  outDir: string,
) {
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

  // PGlite allows one process at a time: its statements are captured and replayed after the server
  // has stopped. PostgreSQL's are captured and replayed right after each API cell, so both see the
  // same machine conditions.
  const interleave = engine === 'postgres';
  const recorder = createStatementRecorder();
  const openHandle = () => openDatabase({ ...connection, poolMax: options.poolMax, onQuery: recorder.observe });
  let handle: DatabaseHandle | null = null;
  let capture: CaptureApp | null = null;
  let servers: ServerProcess[] = [];
  try {
    handle = await openHandle();
    log('MOT daily sweep: first (from no events), then a re-run…');
    const sweep = await measureMotSweeps(handle, engine, customers, options.asOf);
    log(
      `  first ${(sweep.firstMs / 1000).toFixed(1)} s (${sweep.firstInserted.toLocaleString('en')} events), re-run ${(sweep.rerunMs / 1000).toFixed(1)} s`,
    );
    const staff = await pickBenchStaff(handle);
    const size = engine === 'postgres' ? await measureDatabaseSize(handle) : null;
    if (size) log(describeSize(size));
    log(`signing in as ${staff.userid} (${staff.customers.toLocaleString('en')} customers, the biggest emulator book)`);
    if (options.scenarios.includes('timeline')) {
      const history = await ensureLongHistoryClient(handle, staff.staffId, options.asOf);
      log(
        `timeline client ${history.customerId}: ${history.written ? 'history extended' : 'history already extended'} back to ${history.firstAt} ` +
          `(${history.trades.toLocaleString('en')} trades, ${history.moneyMovements.toLocaleString('en')} money movements, ` +
          `${history.transfers} transfers, ${history.contactRecords} contact records, ${history.profileEdits} profile edits, ${history.kycChanges} KYC changes)`,
      );
    }
    capture = await startCaptureApp(handle, recorder, staff.userid);
    const written = await writeServiceRecords(
      handle,
      staff,
      Math.min(200, options.paramsPerEndpoint * 2),
      capture.baseUrl,
      capture.headers,
    );
    log(`handled ${written} MOT events through the API (service records for the history search)`);
    // The sweep just rewrote mot_event: vacuumed now, the plans measured do not depend on whether autovacuum ran yet.
    await handle.query('vacuum (analyze) mot_event, contact_record, contact_record_event');
    const book = await loadBookSample(handle, staff.staffId, options.asOf);
    log(`read the book once for the parameter generator (seed ${options.seed}): ${book.customers.length.toLocaleString('en')} customers`);
    const scenarios = [
      ...honestScenarios(options.scenarios, book, options.seed),
      ...(options.warm
        ? (await buildWarmScenarios(handle, staff, options.paramsPerEndpoint)).filter((scenario) =>
            (options.scenarios as string[]).includes(scenario.name.replace(/^warm:/, '')),
          )
        : []),
    ];
    if (!interleave) {
      await capture.close();
      capture = null;
      await handle.close();
      handle = null;
    }

    const replayCell = async (pending: PendingSql): Promise<CellResult> => {
      await capture!.mirror(pending.scenario.endpoint, pending.warmup);
      await settleBookIndexes(capture!.baseUrl);
      const { requests, failures } = await capture!.capture(pending.scenario.endpoint, pending.sent);
      const sql = await replaySql(sqlRunnerFor(handle!), requests, {
        concurrency: pending.concurrency,
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
      });
      if (failures.length) {
        sql.errors += failures.length;
        sql.errorSamples = [...new Set(failures.map((failure) => `capture: ${failure}`)), ...sql.errorSamples].slice(0, 3);
      }
      const statements = requests.reduce((sum, request) => sum + request.flat().length, 0) / Math.max(requests.length, 1);
      const flat = requests.flat(2);
      const cell: CellResult = {
        ...pending.cell,
        sql,
        preparedShare: flat.length ? flat.filter((statement) => statement.prepared).length / flat.length : 0,
      };
      const verdicts = [p95Verdict(cell) ? `p95 ${p95Verdict(cell)}` : '', `API/SQL ${apiOverSql(cell).toFixed(2)}× ${ratioVerdict(cell)}`]
        .filter(Boolean)
        .join(', ');
      log(
        `  ${next()} ${pending.scenario.name.padEnd(20)} c${String(pending.concurrency).padEnd(3)} SQL ${describeMeasurement(sql)} ` +
          `(${requests.length} requests captured, ${statements.toFixed(1)} statements each, ${((cell.preparedShare ?? 0) * 100).toFixed(0)}% prepared) — ${verdicts}`,
      );
      return cell;
    };

    // PGlite is one embedded database in one process: replicas are a PostgreSQL deployment.
    const replicas = engine === 'postgres' ? options.replicas : 1;
    log(
      `API over HTTP (${replicas === 1 ? 'the server in its own process' : `${replicas} server processes, the load spread over them`}), ` +
        'each cell followed by its captured SQL replayed alone:',
    );
    // One after another: each applies pending migrations on open, and the first to start does the work.
    for (let replica = 0; replica < replicas; replica++) servers.push(await startReplica());
    async function startReplica() {
      return startServerProcess({
        env: {
          ...('url' in connection
            ? { DATABASE_URL: connection.url, ...(options.readUrl ? { DATABASE_READ_URL: options.readUrl } : {}) }
            : { PGLITE_DIR: connection.pgliteDir }),
          DATABASE_POOL_MAX: String(options.poolMax),
          // Production's default: the per-request log lines are part of what a request costs.
          LOG_LEVEL: 'info',
          WECOM_MODE: 'emulator',
          WEB_DIST_DIR: lighthouse?.webDist ?? '',
        },
        startTimeoutMs: 180_000,
      });
    }
    const baseUrls = servers.map((server) => server.baseUrl);
    const baseUrl = baseUrls[0]!;
    const cpuSources = {
      serverCpuSeconds: () => servers.reduce((sum, server) => sum + server.cpuSeconds(), 0),
      localPostgres: engine === 'postgres' && isLocalDatabase(options.databaseUrl),
    };
    const cells: CellResult[] = [];
    const fixedRate: FixedRateResult[] = [];
    // PGlite: what the capture app is to be sent after the server stops, in the order the server was.
    const deferred: Array<PendingSql | { mirror: Scenario; inputs: EndpointInput[] }> = [];
    const auth = await signInAs(baseUrl, staff.userid);
    for (const scenario of scenarios) {
      const concurrencies = scenario.group === 'warm' ? [capacityConcurrency(options)] : options.concurrencies;
      let sent: EndpointInput[] | null = null;
      const source = () => {
        const input = scenario.next();
        sent?.push(input);
        return wireRequest(scenario.endpoint, input, auth.headers);
      };
      for (const concurrency of concurrencies) {
        // Warm-up apart, so the CPU share and the index counters cover the measured requests alone.
        const warmup: EndpointInput[] = (sent = []);
        if (options.warmupMs > 0) await driveHttp(baseUrls, source, { concurrency, durationMs: options.warmupMs });
        await Promise.all(baseUrls.map((url) => settleBookIndexes(url)));
        sent = [];
        const repeatsBefore = scenario.repeats();
        const {
          result: { result: api, cpu },
          indexed,
        } = await withIndexUse(baseUrls, () =>
          measureCpuShare(() => driveHttp(baseUrls, source, { concurrency, durationMs: options.durationMs }), cpuSources),
        );
        const cell = {
          engine,
          endpoint: scenario.name,
          group: scenario.group,
          concurrency,
          api,
          cpu,
          repeats: scenario.repeats() - repeatsBefore,
        };
        log(
          `  ${next()} ${scenario.name.padEnd(20)} c${String(concurrency).padEnd(3)} API ${describeMeasurement(api)}${indexed}` +
            `${cell.repeats ? `; ${cell.repeats} repeated parameters` : ''}`,
        );
        logCpuShare(cpu);
        const pending: PendingSql = { scenario, concurrency, warmup, sent, cell };
        if (interleave) cells.push(await replayCell(pending));
        else deferred.push(pending);
      }
      if (scenario.group !== 'warm' && options.fixedRate) {
        const capacityCell = [...cells, ...deferred.flatMap((pending) => ('cell' in pending ? [pending.cell] : []))].find(
          (cell) => cell.endpoint === scenario.name && cell.concurrency === capacityConcurrency(options),
        );
        for (const fraction of TARGETS.fixedRateFractions) {
          if (!capacityCell || !(capacityCell.api.requestsPerSecond > 0)) break;
          const targetRate = capacityCell.api.requestsPerSecond * fraction;
          // Warm-up and measured run both mirrored, in order (the capture app must see what the server saw).
          const fixedSent: EndpointInput[] = (sent = []);
          // An unmeasured warm-up at the same rate, so the first run does not count compiling and connecting.
          if (options.warmupMs > 0) await driveFixedRate(baseUrls, source, { ratePerSecond: targetRate, durationMs: options.warmupMs });
          const repeatsBefore = scenario.repeats();
          // A fixed rate sends each request on its own wake-up: its CPU per request can differ from the closed loop's.
          const { result: api, cpu } = await measureCpuShare(
            () => driveFixedRate(baseUrls, source, { ratePerSecond: targetRate, durationMs: options.durationMs }),
            cpuSources,
          );
          if (interleave) await capture!.mirror(scenario.endpoint, fixedSent);
          else deferred.push({ mirror: scenario, inputs: fixedSent });
          const result: FixedRateResult = {
            engine,
            endpoint: scenario.name,
            group: scenario.group,
            fraction,
            capacityConcurrency: capacityCell.concurrency,
            targetRate,
            api,
            cpu,
            repeats: scenario.repeats() - repeatsBefore,
          };
          fixedRate.push(result);
          log(
            `  ${next()} ${scenario.name.padEnd(20)} ${`${fraction * 100}%`.padEnd(4)} fixed rate ${targetRate.toFixed(0)}/s: ${describeMeasurement(api)}`,
          );
          logCpuShare(cpu);
        }
      }
    }
    let lighthouseOutcome: LighthouseOutcome | null = null;
    if (lighthouse) {
      log(`Lighthouse (mobile, cold cache: a fresh browser profile each run) on the client list…`);
      try {
        const runs = [];
        for (let run = 0; run < options.lighthouseRuns; run++) {
          runs.push(await lighthouse.run({ baseUrl, staffUserId: staff.userid }));
          const { score, metrics } = runs.at(-1)!;
          log(`  run ${run + 1} of ${options.lighthouseRuns}: score ${score}, LCP ${metrics.lcpMs} ms, TBT ${metrics.tbtMs} ms`);
        }
        const median = medianRun(runs);
        lighthouseOutcome = { engine, ...median, runScores: runs.map((run) => run.score), runMetrics: runs.map((run) => run.metrics) };
        log(`  median score ${median.score}`);
      } catch (error) {
        lighthouseOutcome = { engine, skipped: `it failed: ${error instanceof Error ? error.message : String(error)}` };
        log(`  Lighthouse ${lighthouseOutcome.skipped}`);
      }
    }
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];

    if (!interleave) {
      log("SQL alone (each cell's requests captured in order, replayed with the same pool size and concurrency):");
      handle = await openHandle();
      capture = await startCaptureApp(handle, recorder, staff.userid);
      for (const job of deferred) {
        if ('cell' in job) cells.push(await replayCell(job));
        else await capture.mirror(job.mirror.endpoint, job.inputs);
      }
    }
    if (options.explain) {
      const explainInputs = new Map<string, CapturedRequest[]>();
      for (const scenario of scenarios.filter((candidate) => candidate.group !== 'warm')) {
        explainInputs.set(
          scenario.name,
          (await capture!.capture(scenario.endpoint, [scenario.next(), scenario.next(), scenario.next()])).requests,
        );
      }
      const { markdown, seqScans } = await explainCaptured(handle!, explainInputs, 3);
      const planPath = join(outDir, 'benchmarks', `explain-${engine}.md`);
      mkdirSync(dirname(planPath), { recursive: true });
      writeFileSync(
        planPath,
        `# Query plans: ${label}\n\nEXPLAIN ANALYZE of three fresh calls of each endpoint, as captured.\n\n${markdown}`,
      );
      log(
        `query plans: ${planPath}${seqScans.length ? `; SEQUENTIAL SCANS: ${seqScans.join('; ')}` : '; no sequential scan on customer, trade or money_movement'}`,
      );
    }
    log(`\n${label}\n${renderCellTable(cells)}`);
    if (fixedRate.length) log(`\n${label}, fixed arrival rate\n${renderFixedRateTable(fixedRate)}`);
    return {
      dataset: {
        engine,
        customers,
        provenance,
        seedMs,
        staffUserId: staff.userid,
        staffCustomers: staff.customers,
        staff: options.staff,
        ...(size ?? {}),
      },
      sweep,
      cells,
      fixedRate,
      lighthouse: lighthouseOutcome,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await capture?.close();
    await handle?.close();
    if (pgliteRoot && !options.keepPglite) rmSync(pgliteRoot, { recursive: true, force: true });
    else if (pgliteRoot) log(`kept PGlite at ${pgliteRoot}`);
  }
}

/** c16, else the highest run: its req/s is the fixed-rate cells' capacity, and the warm-cache row runs at it alone. */
const capacityConcurrency = (options: BenchOptions) =>
  options.concurrencies.includes(TARGETS.p95Concurrency) ? TARGETS.p95Concurrency : Math.max(...options.concurrencies);

/** docs/ for a full run; anything else must not overwrite the committed figures. */
const outDirFor = (options: BenchOptions) =>
  options.outDir ?? (isFullRun(options) ? join(REPO_ROOT, 'docs') : mkdtempSync(join(tmpdir(), 'broker-bench-report-')));

function writeReport(report: BenchReport, outDir: string): string {
  const docPath = join(outDir, 'benchmarks', 'results.md');
  const chartPath = join(outDir, 'benchmarks', 'p95-c16.svg');
  mkdirSync(dirname(chartPath), { recursive: true });
  const labels = Object.fromEntries(report.datasets.map((dataset) => [dataset.engine, engineLabel(dataset.engine, dataset.customers)]));
  writeFileSync(chartPath, renderP95Chart(report.cells, labels));
  writeFileSync(join(outDir, 'benchmarks', 'results.json'), JSON.stringify(report, null, 2) + '\n');
  // A report outside docs/ starts from the committed document, so it reads the same.
  const committed = join(REPO_ROOT, 'docs', 'benchmarks', 'results.md');
  const existing = existsSync(docPath) ? readFileSync(docPath, 'utf8') : null;
  const template = existsSync(committed) ? readFileSync(committed, 'utf8') : '# Benchmark results\n';
  writeFileSync(docPath, spliceGenerated(existing, renderGeneratedSection(report, 'p95-c16.svg'), template));
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
  if (options.datasetOnly) {
    const started = performance.now();
    const identity = { customers: options.customers, seed: options.seed, asOf: options.asOf, staff: options.staff };
    log(`Dataset only: ${engineLabel('postgres', options.customers)} (${options.staff} staff) in ${options.databaseUrl}`);
    const prepared = await preparePostgresDataset(options.databaseUrl, identity, { reseed: options.reseed, log });
    const handle = await openDatabase({ url: options.databaseUrl, poolMax: 1 });
    try {
      log(describeSize(await measureDatabaseSize(handle)));
    } finally {
      await handle.close();
    }
    log(`Done in ${((performance.now() - started) / 60_000).toFixed(1)} min: ${prepared.decision.action}, ${prepared.decision.reason}.`);
    return;
  }
  const startedAt = new Date();
  const outDir = outDirFor(options);
  // Per engine and endpoint: API and SQL at each concurrency, the fixed-rate cells, and the warm-cache row (API and SQL).
  const cellsPerScenario =
    options.concurrencies.length * 2 + (options.fixedRate ? TARGETS.fixedRateFractions.length : 0) + (options.warm ? 2 : 0);
  const cellsTotal = options.engines.length * options.scenarios.length * cellsPerScenario;
  log(
    `Benchmark: ${options.engines.map((engine) => engineLabel(engine, engine === 'postgres' ? options.customers : options.pgliteCustomers)).join(' and ')}; ` +
      `${options.scenarios.length} endpoints × concurrency ${options.concurrencies.join('/')}` +
      `${options.fixedRate ? ` and fixed rates of ${TARGETS.fixedRateFractions.map((fraction) => `${fraction * 100}%`).join('/')}` : ''}` +
      `${options.warm ? ', plus the warm-cache row' : ''}; ~${cellsTotal} cells of ${(options.warmupMs + options.durationMs) / 1000} s; parameters seed ${options.seed}` +
      `${options.quick ? ' (quick)' : ''}`,
  );

  const prepared = await prepareLighthouse(options);
  const lighthouse = typeof prepared === 'string' ? null : prepared;
  const lighthouseSkipped = typeof prepared === 'string' ? prepared : null;
  if (lighthouseSkipped && options.lighthouseOnly) {
    console.error(`--lighthouse-only, but Lighthouse cannot run: ${lighthouseSkipped}`);
    process.exit(1);
  }
  if (lighthouseSkipped) log(`Lighthouse: skipped (${lighthouseSkipped})`);
  // Once, on the last database: PostgreSQL when it is in the run (the data a real deployment has).
  const lighthouseEngine = options.engines.includes('postgres') ? 'postgres' : options.engines[0];

  const machine = await describeMachine(
    options.engines.includes('postgres') ? Object.assign(new URL(options.databaseUrl), { pathname: '/postgres' }).toString() : null,
  );
  const next = progressTracker(cellsTotal, options.warmupMs + options.durationMs);
  const runs: Awaited<ReturnType<typeof runEngine>>[] = [];
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
      seed: options.seed,
      replicas: options.replicas,
      ...(options.readUrl ? { readFrom: options.readUrl.replace(/\/\/([^:@/]+):[^@/]*@/g, '//$1:***@') } : {}),
    },
    machine,
    datasets: ordered.map((run) => run.dataset),
    cells: ordered.flatMap((run) => run.cells),
    fixedRate: ordered.flatMap((run) => run.fixedRate),
    sweeps: ordered.map((run) => run.sweep),
    lighthouse:
      ordered.find((run) => run.lighthouse)?.lighthouse ?? (lighthouseSkipped ? { engine: null, skipped: lighthouseSkipped } : null),
  };
  const docPath = writeReport(report, outDir);
  const errors =
    report.cells.reduce((sum, cell) => sum + cell.api.errors + cell.sql.errors, 0) +
    (report.fixedRate ?? []).reduce((sum, result) => sum + result.api.errors, 0);
  log(`\nReport: ${docPath}${isFullRun(options) || options.outDir ? '' : ' (not a full run, so docs/ is left alone)'}`);
  log(`Done in ${(report.elapsedMs / 60_000).toFixed(1)} min.${errors ? ` ${errors} requests FAILED: see the errors column.` : ''}`);
  // Misses are findings; failed requests mean the figures cannot be trusted.
  if (errors) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
