import type { FastifyInstance } from 'fastify';
import {
  getAsset,
  getBaseInfo,
  getDynamic,
  getHolding,
  getProfile,
  getTrade,
  getTransfer,
  getWithdrawalDeposit,
  updateProfile,
} from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { callerOf } from '../../http/caller';
import { createClientRepository } from './client.repository';
import { createClientService } from './client.service';

/** One client of the signed-in manager: profile, assets, holdings, trades, money, transfers, edit. */
export async function clientRoutes(app: FastifyInstance) {
  const service = createClientService(createClientRepository(app.database.db));

  routeEndpoint(app, getProfile, (input, request) => service.profile(callerOf(request), input.customerId));
  routeEndpoint(app, getBaseInfo, (input, request) => service.baseInfo(callerOf(request), input.customerId));
  routeEndpoint(app, getAsset, (input, request) => service.asset(callerOf(request), input.customerId));
  routeEndpoint(app, getDynamic, (input, request) => service.dynamics(callerOf(request), input.customerId, input.before, input.limit));
  routeEndpoint(app, getHolding, (input, request) => service.holdings(callerOf(request), input.customerId, input.market, input));
  routeEndpoint(app, getTrade, (input, request) => service.trades(callerOf(request), input.customerId, input, input));
  routeEndpoint(app, getWithdrawalDeposit, (input, request) => service.moneyMovements(callerOf(request), input.customerId, input, input));
  routeEndpoint(app, getTransfer, (input, request) => service.transfers(callerOf(request), input.customerId, input, input));
  routeEndpoint(app, updateProfile, (input, request) => service.updateProfile(callerOf(request), input));
}
