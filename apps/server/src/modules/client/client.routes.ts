import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { getAsset } from './client-asset';
import { getTrade, getTransfer, getWithdrawalDeposit } from './client-history';
import { getHolding } from './client-holdings';
import { getBaseInfo, getProfile } from './client-profile';
import { getReach, revealPhone } from './client-reach';
import { getDynamic, getTimeline } from './client-timeline.service';
import { updateProfile } from './update-profile';

/** One client of the signed-in manager: profile, timeline, assets, holdings, trades, money, transfers, edit, reach (ADR 0039). */
export const clientRoutes = implementArea(contract.customer, (app) => {
  const db = app.database.db;
  return {
    getProfile: ({ input, caller }) => getProfile(db, caller, input.customerId),
    getBaseInfo: ({ input, caller }) => getBaseInfo(db, caller, input.customerId),
    getAsset: ({ input, caller }) => getAsset(db, caller, input.customerId),
    getDynamic: ({ input, caller }) => getDynamic(db, caller, input.customerId, input.before, input.limit),
    getTimeline: ({ input, caller }) => getTimeline(db, caller, input),
    getHolding: ({ input, caller }) => getHolding(db, caller, input.customerId, input.market, input),
    getTrade: ({ input, caller }) => getTrade(db, caller, input.customerId, input, input),
    getWithdrawalDeposit: ({ input, caller }) => getWithdrawalDeposit(db, caller, input.customerId, input, input),
    getTransfer: ({ input, caller }) => getTransfer(db, caller, input.customerId, input, input),
    updateProfile: ({ input, caller }) => updateProfile(db, caller, input),
    getReach: ({ input, caller }) => getReach(db, caller, input.customerId),
    revealPhone: ({ input, caller }) => revealPhone(db, caller, input.customerId, input.purpose),
  };
});
