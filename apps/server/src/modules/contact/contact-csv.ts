import { hongKongDateTime } from '@broker/domain';
import type { RecordRow } from './contact.repository';

/**
 * One field of RFC 4180 CSV that a spreadsheet opens as text. Quotes are doubled and every field is
 * quoted. A field that begins with = + - @, a tab or a carriage return would be run as a formula by
 * Excel or Sheets (CSV injection, OWASP): it gets a leading apostrophe, which they show as text.
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
 * A client's contact log for a compliance request: every version of every record, oldest contact
 * first, UTF-8 with a byte-order mark (so Excel reads Chinese), CRLF line ends. Codes (channel,
 * purpose, MOT rule) stay codes: the file is evidence, not a translated page.
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
