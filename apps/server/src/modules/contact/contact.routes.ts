import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { addContactRecord } from './add-contact-record';
import { exportContactRecords, getContactRecord, listContactRecords } from './contact-record-reads';
import { reviseContactRecord } from './revise-contact-record';

/** The contact log (ADR 0038, docs/contact-log.md): shared by the client pages and MOT. */
export const contactRoutes = implementArea(contract.contact, (app, options: { lockHours: number }) => {
  const db = app.database.db;
  return {
    addContactRecord: ({ input, caller }) => addContactRecord(db, caller, input, options.lockHours),
    reviseContactRecord: ({ input, caller }) => reviseContactRecord(db, caller, input, options.lockHours),
    getContactRecord: ({ input, caller }) => getContactRecord(db, caller, input.recordId),
    listContactRecords: ({ input, caller }) => listContactRecords(db, caller, input),
    exportContactRecords: ({ input, caller }) => exportContactRecords(db, caller, input),
  };
});
