import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { currencySchema } from '../common';

export const staffEndpoint = areaEndpoints({ agent: 'khzl', shared: true, tag: 'staff' });

export const getDefaultCcy = staffEndpoint({
  method: 'GET',
  path: '/api/client/staff/asset/getDefaultCcy',
  request: z.strictObject({}),
  response: z.object({ ccy: currencySchema }),
  summary: "The signed-in staff member's default display currency",
  silent: true,
});

export const configureDefaultCcy = staffEndpoint({
  method: 'GET',
  path: '/api/client/staff/asset/configureDefaultCcy',
  request: z.strictObject({ ccy: currencySchema }),
  response: z.object({ ccy: currencySchema }),
  summary: "Set the signed-in staff member's default display currency",
});
