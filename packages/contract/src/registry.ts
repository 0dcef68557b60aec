import { getCorpConfig, loginQywx } from './endpoints/auth';
import { getJsSdkSign } from './endpoints/wecom';
import { configureDefaultCcy, getDefaultCcy } from './endpoints/staff';
import { getCurrencyExchangeRate, isFold } from './endpoints/settings';

/**
 * Every endpoint of the API. The server registers a handler for each and tests walk this list
 * (malformed-input and authorisation sweeps), so a new endpoint cannot escape them.
 */
export const endpoints = {
  loginQywx,
  getCorpConfig,
  getJsSdkSign,
  getDefaultCcy,
  configureDefaultCcy,
  getCurrencyExchangeRate,
  isFold,
} as const;

export type EndpointName = keyof typeof endpoints;
