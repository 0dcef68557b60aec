import type { FastifyInstance } from 'fastify';
import {
  getClientHistory,
  getMinCashIO,
  getTodoClients,
  getTodoDates,
  getTodoTaskCount,
  getTodoTaskDetail,
  handleEvent,
  markEventsSeen,
  searchServiceHistory,
  setFold,
  setMinCashIO,
} from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { callerOf } from '../../http/caller';
import { createMotRepository } from './mot.repository';
import { createMotService } from './mot.service';

/** MOT to-do list, handling and service history (agent `mot`). The fold flag's reader, isFold, lives with the staff settings. */
export async function motRoutes(app: FastifyInstance) {
  const service = createMotService({ repository: createMotRepository(app.database.db), database: app.database });
  routeEndpoint(app, getTodoDates, (input, request) => service.dates(callerOf(request), input));
  routeEndpoint(app, getTodoClients, (input, request) => service.todoClients(callerOf(request), input));
  routeEndpoint(app, markEventsSeen, (input, request) => service.seen(callerOf(request), input.eventIds));
  routeEndpoint(app, handleEvent, (input, request) => service.handle(callerOf(request), input));
  routeEndpoint(app, getTodoTaskCount, (input, request) => service.taskCount(callerOf(request), input.date));
  routeEndpoint(app, getTodoTaskDetail, (input, request) => service.detail(callerOf(request), input.eventId));
  routeEndpoint(app, getMinCashIO, (_input, request) => service.minCashIo(callerOf(request)));
  routeEndpoint(app, setMinCashIO, (input, request) => service.setMinCashIo(callerOf(request), input.minCashIO));
  routeEndpoint(app, searchServiceHistory, (input, request) => service.history(callerOf(request), input));
  routeEndpoint(app, getClientHistory, (input, request) => service.clientHistory(callerOf(request), input));
  routeEndpoint(app, setFold, (input, request) => service.setFold(callerOf(request), input.isFold));
}
