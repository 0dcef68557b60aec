import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { currencySchema } from '../common';

export const exchangeRateSchema = z.object({
  toCcy: currencySchema,
  /** Multiply an HKD amount by this to get the amount in `toCcy`. */
  rate: z.number().positive(),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

export const getCurrencyExchangeRate = defineEndpoint({
  method: 'GET',
  path: '/api/client/common/getCurrencyExchangeRate',
  agent: 'khzl',
  shared: true,
  auth: true,
  request: z.strictObject({}),
  response: z.array(exchangeRateSchema),
  summary: 'Exchange rates from HKD to each supported currency',
  tag: 'staff',
  silent: true,
});

/** Whether the MOT home folds events into one row per client. */
export const isFold = defineEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/isFold',
  agent: 'mot',
  auth: true,
  payload: 'none',
  request: z.strictObject({}),
  response: z.boolean(),
  summary: "The signed-in staff member's MOT fold setting",
  tag: 'mot',
  silent: true,
});
