import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './report';
import { renderScaleSection, spliceScaleSection } from './scale-report';

/**
 * `npm run bench:scale -- <smaller results.json> <larger results.json>`: the growth table (ADR 0052 / ADR 0053) into
 * docs/benchmarks/scale.md, both runs' figures kept as docs/benchmarks/scale/<customers>.json.
 */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCALE_DIR = join(REPO_ROOT, 'docs', 'benchmarks', 'scale');
const DOC = join(REPO_ROOT, 'docs', 'benchmarks', 'scale.md');

function main() {
  const [basePath, grownPath] = process.argv.slice(2);
  if (!basePath || !grownPath) {
    console.error('usage: npm run bench:scale -- <smaller results.json> <larger results.json>');
    process.exit(2);
  }
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as BenchReport;
  const base = read(resolve(basePath));
  const grown = read(resolve(grownPath));
  mkdirSync(SCALE_DIR, { recursive: true });
  const keep = (path: string, report: BenchReport) => {
    const customers = report.datasets.find((dataset) => dataset.engine === 'postgres')?.customers;
    const target = join(SCALE_DIR, `${customers ?? basename(path, '.json')}.json`);
    if (resolve(path) !== target) copyFileSync(resolve(path), target);
    return relative(REPO_ROOT, target);
  };
  const sources = { base: keep(basePath, base), grown: keep(grownPath, grown) };
  const section = renderScaleSection(base, grown, sources);
  writeFileSync(DOC, spliceScaleSection(readFileSync(DOC, 'utf8'), section, '# At scale'));
  console.log(`docs/benchmarks/scale.md: scale section written from ${sources.base} and ${sources.grown}`);
}

main();
