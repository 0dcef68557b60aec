import { sql, type SQL } from 'drizzle-orm';
import { MOT_RULES } from '@broker/contract';
import { DEFAULT_MOT_RANK_WEIGHTS } from '../../mot-rank-config';

/**
 * Which rules matter most when a card can name only a few events: the ranked day's type weights
 * (ADR 0041, the one owner of how much a rule matters), heaviest first; equal weights by name.
 */
export const PUSH_RULE_PRIORITY = [...MOT_RULES].sort(
  (a, b) => DEFAULT_MOT_RANK_WEIGHTS.typeWeights[b] - DEFAULT_MOT_RANK_WEIGHTS.typeWeights[a] || a.localeCompare(b),
);

/**
 * The order of the events a card names: the ONE place that decides it. The earliest due first (overdue
 * before today before later), then by the rule's weight above, then the oldest event. (The whole ranked
 * score also weighs the client's assets and the last contact; a card names at most a few events of one
 * batch, mostly raised the same day, where the due day and the rule decide.) `event` is the SQL alias of a
 * mot_event row.
 */
export function pushEventOrder(event: string): SQL {
  const column = (name: string) => sql.raw(`${event}.${name}`);
  const priorities = sql.raw(`ARRAY[${PUSH_RULE_PRIORITY.map((rule) => `'${rule}'`).join(',')}]::text[]`);
  return sql`${column('due_date')} asc, coalesce(array_position(${priorities}, ${column('rule')}), 1000) asc, ${column('rule')} asc, ${column('id')} asc`;
}
