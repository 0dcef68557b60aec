/** The contact log (ADR 0038): logging a contact with a client, the record and its versions, the client's log, its print. */
export const contactPages = {
  contactNew: () => import('./contact-new-page'),
  contactRecord: () => import('./contact-record-page'),
  contactLog: () => import('./contact-log-page'),
  contactPrint: () => import('./contact-print-page'),
};

export { CONTACT_PATHS, contactFormPath, contactLogPath, contactRecordPath } from './contact-paths';
