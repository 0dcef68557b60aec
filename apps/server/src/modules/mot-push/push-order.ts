import { sql, type SQL } from 'drizzle-orm';

/**
 * Which rules matter most when a card can name only a few events: risks and money leaving first,
 * greetings last. Rules not listed (added later) come after these, by name.
 */
export const PUSH_RULE_PRIORITY = [
  'id_expiry',
  'risk_expiry',
  'large_withdrawal',
  'position_loss',
  'transfer_out',
  'contact_removed',
  'large_deposit',
  'transfer_in',
  'unfunded',
  'dormant',
  'birthday',
  'anniversary',
] as const;

/**
 * The order of the events a card names: the ONE place that decides it. Until the ranked day (issue 24.1)
 * gives events a score, the earliest due first (overdue before today before later), then by the rule's
 * weight above, then the oldest event. `event` is the SQL alias of a mot_event row.
 */
export function pushEventOrder(event: string): SQL {
  const column = (name: string) => sql.raw(`${event}.${name}`);
  const priorities = sql.raw(`ARRAY[${PUSH_RULE_PRIORITY.map((rule) => `'${rule}'`).join(',')}]::text[]`);
  return sql`${column('due_date')} asc, coalesce(array_position(${priorities}, ${column('rule')}), 1000) asc, ${column('rule')} asc, ${column('id')} asc`;
}
