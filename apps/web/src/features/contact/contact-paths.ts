import type { ContactFormParams } from './contact-params';

/**
 * The contact log's pages (also in `@broker/contract/app-routes` and the route table) and the links to them. The route table
 * reads this file on the first screen: it imports no schema of the contract (contact-params does), only a type.
 */
export const CONTACT_PATHS = {
  new: '/client/contact/new',
  record: '/client/contact/record',
  log: '/client/contact/log',
  print: '/client/contact/print',
} as const;

/** A link to the log form: the same names the parser reads (`at` in whole milliseconds, as it checks it). */
export function contactFormPath(params: { customerId: number } & Partial<Omit<ContactFormParams, 'customerId'>>): string {
  const query = new URLSearchParams({ customerId: String(params.customerId) });
  if (params.channel) query.set('channel', params.channel);
  if (params.at) query.set('at', String(Math.trunc(params.at)));
  if (params.eventId) query.set('eventId', String(params.eventId));
  if (params.followsRecordId) query.set('followsRecordId', String(params.followsRecordId));
  return `${CONTACT_PATHS.new}?${query.toString()}`;
}

export const contactRecordPath = (recordId: number) => `${CONTACT_PATHS.record}?recordId=${recordId}`;
export const contactLogPath = (customerId: number) => `${CONTACT_PATHS.log}?customerId=${customerId}`;
export const contactPrintPath = (customerId: number) => `${CONTACT_PATHS.print}?customerId=${customerId}`;
