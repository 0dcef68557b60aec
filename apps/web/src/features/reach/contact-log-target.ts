/** H-B's log form (ADR 0038): `/client/contact/new`, prefilled from its query, which that page checks with its own parser. */
export const CONTACT_LOG_FORM_PATH = '/client/contact/new';

/** How the client was just reached, as the contact log names it. */
export type ReachChannel = 'phone' | 'wecom';

/** The log form after a chat or a call: the client, the channel, the moment (epoch ms) and the MOT event it answers. */
export function contactLogTarget(contact: { customerId: number; channel: ReachChannel; at: number; eventId?: number | undefined }): string {
  const query = new URLSearchParams({
    customerId: String(contact.customerId),
    channel: contact.channel,
    at: String(Math.trunc(contact.at)),
  });
  if (contact.eventId !== undefined) query.set('eventId', String(contact.eventId));
  return `${CONTACT_LOG_FORM_PATH}?${query.toString()}`;
}
