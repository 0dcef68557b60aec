import type { FastifyInstance } from 'fastify';
import { configureDefaultCcy, currencySchema, DEFAULT_CURRENCY, getDefaultCcy } from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { callerOf } from '../../plugins/auth.plugin';
import { createStaffRepository } from './staff.repository';

export async function staffRoutes(app: FastifyInstance) {
  const repository = createStaffRepository(app.database.db);

  routeEndpoint(app, getDefaultCcy, async (_input, request) => {
    const stored = await repository.defaultCurrency(callerOf(request).staffId);
    return { ccy: currencySchema.catch(DEFAULT_CURRENCY).parse(stored) };
  });

  routeEndpoint(app, configureDefaultCcy, async (input, request) => {
    await repository.setDefaultCurrency(callerOf(request).staffId, input.ccy);
    return { ccy: input.ccy };
  });
}
