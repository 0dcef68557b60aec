import { z } from 'zod';
import { currencySchema } from '../common';
import { motEndpoint } from './mot';
import { staffEndpoint } from './staff';

export const exchangeRateSchema = z.object({
  toCcy: currencySchema,
  /** Multiply an HKD amount by this to get the amount in `toCcy`. */
  rate: z.number().positive(),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

export const getCurrencyExchangeRate = staffEndpoint({
  method: 'GET',
  path: '/api/client/common/getCurrencyExchangeRate',
  request: z.strictObject({}),
  response: z.array(exchangeRateSchema),
  summary: 'Exchange rates from HKD to each supported currency',
  silent: true,
});

/** Whether the MOT home folds events into one row per client. */
export const isFold = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/isFold',
  payload: 'none',
  request: z.strictObject({}),
  response: z.boolean(),
  summary: "The signed-in staff member's MOT fold setting",
  silent: true,
});
