import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { createContactRepository } from './contact.repository';
import { createContactService } from './contact.service';

/** The contact log (issue 23, ADR 0038, docs/contact-log.md): shared by the client pages and MOT. */
export const contactRoutes = implementArea(contract.contact, (app, options: { lockHours: number }) => {
  const service = createContactService({ repository: createContactRepository(app.database.db, options) });
  return {
    addContactRecord: ({ input, caller }) => service.add(caller, input),
    reviseContactRecord: ({ input, caller }) => service.revise(caller, input),
    getContactRecord: ({ input, caller }) => service.get(caller, input.recordId),
    listContactRecords: ({ input, caller }) => service.list(caller, input),
    exportContactRecords: ({ input, caller }) => service.export(caller, input),
  };
});
