import type { FastifyInstance } from 'fastify';
import { getChannel, searchCustomers, statCustomers } from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { callerOf } from '../../http/caller';
import { createManageRepository } from './manage.repository';
import { createManageService } from './manage.service';

/** The signed-in manager's client list: channels, search with filters and sort, stat header. */
export async function manageRoutes(app: FastifyInstance) {
  const service = createManageService(createManageRepository(app.database.db));

  routeEndpoint(app, getChannel, (_input, request) => service.channels(callerOf(request)));
  routeEndpoint(app, searchCustomers, (input, request) => service.search(callerOf(request), input));
  routeEndpoint(app, statCustomers, (input, request) => service.stat(callerOf(request), input));
}
