import type { DatabaseHandle } from '@broker/server';
import { TRANSACTION_CONTROL, type CapturedRequest } from './sql-replay';

/** Tables whose full scan on a request path is a bug at a million customers (the speed targets, docs/benchmarks.md). */
export const BIG_TABLES = ['customer', 'trade', 'money_movement'];

/** `Seq Scan on trade t` and the like, for the big tables only. */
export function bigTableSeqScans(plan: string): string[] {
  const found = new Set<string>();
  for (const match of plan.matchAll(/Seq Scan on (\w+)/g)) if (BIG_TABLES.includes(match[1]!)) found.add(match[1]!);
  return [...found];
}

/** EXPLAIN ANALYZE of the first `perScenario` captured calls of each scenario (it captures no writes), and big-table seq scans. */
export async function explainCaptured(
  handle: Pick<DatabaseHandle, 'query' | 'kind'>,
  captured: ReadonlyMap<string, CapturedRequest[]>,
  perScenario: number,
): Promise<{ markdown: string; seqScans: string[] }> {
  const out: string[] = [];
  const seqScans: string[] = [];
  const options = handle.kind === 'postgres' ? 'analyze, buffers' : 'analyze';
  for (const [scenario, requests] of captured) {
    out.push(`## ${scenario}`, '');
    for (const [index, request] of requests.slice(0, perScenario).entries()) {
      for (const statement of request.flat()) {
        if (TRANSACTION_CONTROL.test(statement.text)) continue;
        const rows = await handle.query<Record<string, string>>(`explain (${options}) ${statement.text}`, statement.params);
        const plan = rows.map((row) => Object.values(row)[0]).join('\n');
        const scans = bigTableSeqScans(plan);
        for (const table of scans) seqScans.push(`${scenario}: Seq Scan on ${table}`);
        out.push(
          `Call ${index + 1}${scans.length ? ` — **sequential scan on ${scans.join(', ')}**` : ''}:`,
          '',
          '```sql',
          statement.text.replace(/\s+/g, ' ').trim(),
          `-- params: ${JSON.stringify(statement.params)}`,
          '```',
          '',
          '```',
          plan,
          '```',
          '',
        );
      }
    }
  }
  return { markdown: out.join('\n'), seqScans: [...new Set(seqScans)] };
}
