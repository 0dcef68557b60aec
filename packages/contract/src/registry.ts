import { getCorpConfig, loginQywx, resumeSession, signOut, signOutEverywhere, startSignIn } from './endpoints/auth';
import { getJsSdkSign } from './endpoints/wecom';
import { configureDefaultCcy, getDefaultCcy } from './endpoints/staff';
import { getCurrencyExchangeRate, isFold } from './endpoints/settings';
import {
  getAsset,
  getBaseInfo,
  getDynamic,
  getHolding,
  getProfile,
  getTrade,
  getTransfer,
  getWithdrawalDeposit,
  updateProfile,
} from './endpoints/customer';
import { getChannel, searchCustomers, statCustomers } from './endpoints/manage';
import { hasKyc, kycBind, kycSearch, kycUnbind } from './endpoints/kyc';
import {
  getClientHistory,
  getMinCashIO,
  getTodoClients,
  getTodoDates,
  getTodoTaskCount,
  getTodoTaskDetail,
  handleEvent,
  markEventsSeen,
  searchServiceHistory,
  setFold,
  setMinCashIO,
} from './endpoints/mot';
import { getMyAuditTrail } from './endpoints/audit';

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
  kycSearch,
  kycBind,
  kycUnbind,
  hasKyc,
  getProfile,
  getBaseInfo,
  getDynamic,
  getAsset,
  getHolding,
  getTrade,
  getWithdrawalDeposit,
  getTransfer,
  updateProfile,
  getChannel,
  searchCustomers,
  statCustomers,
  getTodoDates,
  getTodoClients,
  markEventsSeen,
  handleEvent,
  getTodoTaskCount,
  getTodoTaskDetail,
  getMinCashIO,
  setMinCashIO,
  searchServiceHistory,
  getClientHistory,
  setFold,
  getMyAuditTrail,
  startSignIn,
  resumeSession,
  signOut,
  signOutEverywhere,
} as const;

export type EndpointName = keyof typeof endpoints;
