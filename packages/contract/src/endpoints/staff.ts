import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { currencySchema } from '../common';

export const getDefaultCcy = defineEndpoint({
  method: 'GET',
  path: '/api/client/staff/asset/getDefaultCcy',
  agent: 'khzl',
  shared: true,
  auth: true,
  payload: 'query',
  request: z.strictObject({}),
  response: z.object({ ccy: currencySchema }),
  summary: "The signed-in staff member's default display currency",
  tag: 'staff',
  errors: [],
  silent: true,
});

export const configureDefaultCcy = defineEndpoint({
  method: 'GET',
  path: '/api/client/staff/asset/configureDefaultCcy',
  agent: 'khzl',
  shared: true,
  auth: true,
  payload: 'query',
  request: z.strictObject({ ccy: currencySchema }),
  response: z.object({ ccy: currencySchema }),
  summary: "Set the signed-in staff member's default display currency",
  tag: 'staff',
  errors: [],
});
