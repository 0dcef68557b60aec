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

const HEADER = [
  'record_id',
  'thread_id',
  'version',
  'latest',
  'served_at_hkt',
  'channel',
  'purpose',
  'note',
  'outcome',
  'next_step',
  'next_step_date',
  'suitability',
  'linked_events',
  'follows_record_id',
  'written_by',
  'written_at_hkt',
  'locks_at_hkt',
  'edits',
  'correction_reason',
  'superseded_at_hkt',
];

const at = (epochMs: number | null) => (epochMs === null ? null : hongKongDateTime(epochMs));

/**
 * Every version of every record, oldest contact first, with a BOM (so Excel reads Chinese) and CRLF. Codes stay
 * codes: the file is evidence, not a translated page.
 */
export function contactLogCsv(rows: readonly RecordRow[]): string {
  const lines = rows.map((row) =>
    [
      row.recordId,
      row.threadId,
      row.version,
      row.latest,
      at(row.servedAt),
      row.channel,
      row.purpose,
      row.note,
      row.outcome,
      row.nextStep,
      row.nextStepDate,
      row.suitability,
      row.events.map((event) => `${event.eventId}:${event.rule}:${event.dueDate}`).join(' '),
      row.followsRecordId,
      `${row.staffName} (${row.staffId})`,
      at(row.createdAt),
      at(row.locksAt),
      row.edits,
      row.correctionReason,
      at(row.supersededAt),
    ]
      .map(csvField)
      .join(','),
  );
  return `\uFEFF${[HEADER.map(csvField).join(','), ...lines].join('\r\n')}\r\n`;
}
