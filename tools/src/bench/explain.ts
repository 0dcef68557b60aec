import type { DatabaseHandle } from '@broker/server';
import type { CapturedRequest } from './sql-replay';

/** Tables whose full scan on a request path is a bug at a million customers (issue 8). */
export const BIG_TABLES = ['customer', 'trade', 'money_movement'];

/** `Seq Scan on trade t` and the like, for the big tables only. */
export function bigTableSeqScans(plan: string): string[] {
  const found = new Set<string>();
  for (const match of plan.matchAll(/Seq Scan on (\w+)/g)) if (BIG_TABLES.includes(match[1]!)) found.add(match[1]!);
  return [...found];
}

const TRANSACTION_CONTROL = /^\s*(begin|start\s+transaction|commit|rollback|savepoint)\b/i;

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement of the first `perScenario` captured calls of each
 * scenario, as Markdown, plus the big-table sequential scans found. Read-only statements only run
 * for real here; the benchmark captures no writes.
 */
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
