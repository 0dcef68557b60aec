import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import type { ContactChannel, ContactRecord } from '@broker/contract';
import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { invalidatePendingEvents, queryClient } from '../../shared/api/query-client';
import type { AddPayload, RevisePayload } from './contact-form';

// Contact pages show read failures in place (error states, list footers), so their reads do not also toast.

const LOG_PAGE_SIZE = 20;
/** The client's latest MOT events the form offers to link (the pending among them); 50 is the contract's largest page. */
const CLIENT_EVENTS_PAGE = 50;

/** Who the client is (header of every contact page) and their latest MOT events (the form links the pending ones). */
export const contactClientQuery = (customerId: number) =>
  queryOptions({
    queryKey: ['contactClient', 'detail', { customerId }],
    queryFn: ({ signal }) =>
      request(endpoints.getClientHistory, { customerId, pageNum: 1, pageSize: CLIENT_EVENTS_PAGE }, { signal, silent: true }),
  });

/** One MOT event, for a link that names it (checked to be this client's before it is linked). */
export const contactEventQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['contactEvent', 'detail', { eventId }],
    queryFn: ({ signal }) => request(endpoints.getTodoTaskDetail, { eventId }, { signal, silent: true }),
    retry: false,
  });

export const contactRecordQuery = (recordId: number) =>
  queryOptions({
    queryKey: ['contactRecord', 'detail', { recordId }],
    queryFn: ({ signal }) => request(endpoints.getContactRecord, { recordId }, { signal, silent: true }),
    // Whether it is still editable depends on the clock and on others: always fetched afresh when opened.
    staleTime: 0,
  });

export const contactLogQuery = (customerId: number, channel: ContactChannel | null, pageSize = LOG_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['contactLog', 'list', { customerId, channel, pageSize }],
    queryFn: ({ pageParam, signal }) =>
      request(
        endpoints.listContactRecords,
        { customerId, limit: pageSize, ...(channel ? { channel } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
        { signal, silent: true },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** After a record is written: the log, the record, the client's events (linked ones became handled) and MOT's views. */
export async function invalidateAfterWrite(record: ContactRecord) {
  queryClient.setQueryData(contactRecordQuery(record.recordId).queryKey, (current) => (current ? { ...current, record } : current));
  await Promise.all([
    ...[['contactLog'], ['contactRecord'], ['contactClient', 'detail', { customerId: record.customerId }], ['contactEvent']].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
    // A linked event is handled now, a follow-up may be due.
    invalidatePendingEvents(),
  ]);
}

/**
 * Writing a record. Failures are shown by the form (under the field, or with what to do): silent, no toast over it. The refetch
 * is not awaited: the page moves on at once; the views refetch behind it.
 */
const useWrite = <P>(write: (payload: P) => Promise<ContactRecord>) =>
  useMutation({
    mutationFn: write,
    onSuccess: (record) => void invalidateAfterWrite(record),
  });

export const useAddContactRecord = () => useWrite((payload: AddPayload) => request(endpoints.addContactRecord, payload, { silent: true }));
export const useReviseContactRecord = () =>
  useWrite((payload: RevisePayload) => request(endpoints.reviseContactRecord, payload, { silent: true }));

/** The client's whole log as CSV (the server audits the export), saved as a file named by the server. */
export function useExportContactLog() {
  return useMutation({
    mutationFn: (customerId: number) => request(endpoints.exportContactRecords, { customerId }, { silent: true }),
    // Excel reads UTF-8 only after a byte-order mark (the contract promises one; it is not doubled).
    onSuccess: ({ csv, fileName }) => saveFile(csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`, fileName, 'text/csv;charset=utf-8'),
  });
}

/** The server names the file; only a plain file name is used (no path, no control characters). */
export const safeFileName = (name: string) => (/^[\w.-]{1,120}$/.test(name) && !name.startsWith('.') ? name : 'contact-log.csv');

function saveFile(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = safeFileName(fileName);
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL; give the browser a moment before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
