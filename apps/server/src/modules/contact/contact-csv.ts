import { hongKongDateTime } from '@broker/domain';
import type { RecordRow } from './contact.repository';

/**
 * RFC 4180, every field quoted. A field beginning with = + - @, a tab or a CR would run as a formula in Excel or
 * Sheets (CSV injection, OWASP): a leading apostrophe makes it text.
 */
export function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

const at = (epochMs: number | null) => (epochMs === null ? null : hongKongDateTime(epochMs));

/** Each column's header and value, in the file's order. */
const COLUMNS: ReadonlyArray<[header: string, value: (row: RecordRow) => string | number | boolean | null]> = [
  ['record_id', (row) => row.recordId],
  ['thread_id', (row) => row.threadId],
  ['version', (row) => row.version],
  ['latest', (row) => row.latest],
  ['served_at_hkt', (row) => at(row.servedAt)],
  ['channel', (row) => row.channel],
  ['purpose', (row) => row.purpose],
  ['note', (row) => row.note],
  ['outcome', (row) => row.outcome],
  ['next_step', (row) => row.nextStep],
  ['next_step_date', (row) => row.nextStepDate],
  ['suitability', (row) => row.suitability],
  ['linked_events', (row) => row.events.map((event) => `${event.eventId}:${event.rule}:${event.dueDate}`).join(' ')],
  ['follows_record_id', (row) => row.followsRecordId],
  ['written_by', (row) => `${row.staffName} (${row.staffId})`],
  ['written_at_hkt', (row) => at(row.createdAt)],
  ['locks_at_hkt', (row) => at(row.locksAt)],
  ['edits', (row) => row.edits],
  ['correction_reason', (row) => row.correctionReason],
  ['superseded_at_hkt', (row) => at(row.supersededAt)],
];

const csvLine = (values: ReadonlyArray<string | number | boolean | null>) => values.map(csvField).join(',');

/**
 * Every version of every record, oldest contact first, with a BOM (so Excel reads Chinese) and CRLF. Codes stay
 * codes: the file is evidence, not a translated page.
 */
export function contactLogCsv(rows: readonly RecordRow[]): string {
  const lines = [csvLine(COLUMNS.map(([header]) => header)), ...rows.map((row) => csvLine(COLUMNS.map(([, value]) => value(row))))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
