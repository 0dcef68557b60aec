// The module's public face: app.ts and other modules import only from here (eslint boundaries).
export * from './contact.routes';
// MOT's handle writes its record through the contact log's one write (ADR 0038).
export { addContactRecord } from './add-contact-record';
export { FOLLOW_UP_RULE } from './contact.repository';
