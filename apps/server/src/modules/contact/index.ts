export * from './contact.routes';
// MOT's handle writes through the contact log's one write (ADR 0038).
export { addContactRecord } from './add-contact-record';
