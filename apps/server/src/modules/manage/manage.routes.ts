import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { createManageRepository } from './manage.repository';
import { createManageService } from './manage.service';

/** The signed-in manager's client list: channels, search with filters and sort, stat header. */
export const manageRoutes = implementArea(contract.manage, (app) => {
  const service = createManageService(createManageRepository(app.database.db));
  return {
    getChannel: ({ caller }) => service.channels(caller),
    searchCustomers: ({ input, caller }) => service.search(caller, input),
    statCustomers: ({ input, caller }) => service.stat(caller, input),
  };
});
