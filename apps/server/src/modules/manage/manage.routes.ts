import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import type { BookIndexStore } from '../customer-search';
import { createManageRepository } from './manage.repository';
import { createManageService } from './manage.service';

export const manageRoutes = implementArea(contract.manage, (app, options: { indexes?: BookIndexStore }) => {
  const service = createManageService(createManageRepository(app.database.db, options.indexes));
  return {
    getChannel: ({ caller }) => service.channels(caller),
    searchCustomers: ({ input, caller }) => service.search(caller, input),
    statCustomers: ({ input, caller }) => service.stat(caller, input),
  };
});
