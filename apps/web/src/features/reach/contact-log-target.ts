import { CONTACT_PATHS } from '../contact';

/** How the client was just reached, as the contact log names it. */
export type ReachChannel = 'phone' | 'wecom';

/** The log form (ADR 0038; it checks its query) after a chat or a call: the client, the channel, the moment (epoch ms), the MOT event. */
export function contactLogTarget(contact: { customerId: number; channel: ReachChannel; at: number; eventId?: number | undefined }): string {
  const query = new URLSearchParams({
    customerId: String(contact.customerId),
    channel: contact.channel,
    at: String(Math.trunc(contact.at)),
  });
  if (contact.eventId !== undefined) query.set('eventId', String(contact.eventId));
  return `${CONTACT_PATHS.new}?${query.toString()}`;
}
