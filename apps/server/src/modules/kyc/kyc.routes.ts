import type { FastifyInstance } from 'fastify';
import { hasKyc, kycBind, kycSearch, kycUnbind } from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { callerOf } from '../../http/caller';
import { createKycRepository } from './kyc.repository';
import { createKycService } from './kyc.service';

export async function kycRoutes(app: FastifyInstance) {
  const service = createKycService({ repository: createKycRepository(app.database.db), wecom: app.wecom });
  routeEndpoint(app, kycSearch, (input, request) => service.search(callerOf(request), input));
  routeEndpoint(app, kycBind, (input, request) => service.bind(callerOf(request), input));
  routeEndpoint(app, kycUnbind, (input, request) => service.unbind(callerOf(request), input.externalUserId));
  routeEndpoint(app, hasKyc, (input, request) => service.hasKyc(callerOf(request), input.externalUserId));
}
