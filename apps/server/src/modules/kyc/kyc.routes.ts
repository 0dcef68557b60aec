import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import type { BookIndexStore } from '../customer-search';
import { createKycRepository } from './kyc.repository';
import { createKycService } from './kyc.service';

export const kycRoutes = implementArea(contract.kyc, (app, options: { indexes?: BookIndexStore }) => {
  const service = createKycService({ repository: createKycRepository(app.database.db, options.indexes), wecom: app.wecom });
  return {
    kycSearch: ({ input, caller }) => service.search(caller, input),
    kycBind: ({ input, caller }) => service.bind(caller, input),
    kycUnbind: ({ input, caller }) => service.unbind(caller, input.externalUserId),
    hasKyc: ({ input, caller }) => service.hasKyc(caller, input.externalUserId),
  };
});
