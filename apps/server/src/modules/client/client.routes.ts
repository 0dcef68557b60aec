import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { createClientRepository } from './client.repository';
import { createClientService } from './client.service';

/** One client of the signed-in manager: profile, timeline, assets, holdings, trades, money, transfers, edit, reach (ADR 0039). */
export const clientRoutes = implementArea(contract.customer, (app) => {
  const service = createClientService(createClientRepository(app.database.db));
  return {
    getProfile: ({ input, caller }) => service.profile(caller, input.customerId),
    getBaseInfo: ({ input, caller }) => service.baseInfo(caller, input.customerId),
    getAsset: ({ input, caller }) => service.asset(caller, input.customerId),
    getDynamic: ({ input, caller }) => service.dynamics(caller, input.customerId, input.before, input.limit),
    getTimeline: ({ input, caller }) => service.timeline(caller, input),
    getHolding: ({ input, caller }) => service.holdings(caller, input.customerId, input.market, input),
    getTrade: ({ input, caller }) => service.trades(caller, input.customerId, input, input),
    getWithdrawalDeposit: ({ input, caller }) => service.moneyMovements(caller, input.customerId, input, input),
    getTransfer: ({ input, caller }) => service.transfers(caller, input.customerId, input, input),
    updateProfile: ({ input, caller }) => service.updateProfile(caller, input),
    getReach: ({ input, caller }) => service.reach(caller, input.customerId),
    revealPhone: ({ input, caller }) => service.revealPhone(caller, input.customerId, input.purpose),
  };
});
