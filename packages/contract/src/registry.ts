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
  getReach,
  revealPhone,
} from './endpoints/customer';
import { getChannel, searchCustomers, statCustomers } from './endpoints/manage';
import { deleteSavedFilter, forgetRecentSearches, getShortcuts, recordClientOpened, saveFilter, setClientPin } from './endpoints/shortcuts';
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
import { getEventRank, getRankedToday, snoozeEvent } from './endpoints/mot-rank';
import { getMyAuditTrail } from './endpoints/audit';
import { addContactRecord, exportContactRecords, getContactRecord, listContactRecords, reviseContactRecord } from './endpoints/contact';
import { getTimeline } from './endpoints/timeline';
import { getMotPushSetting, setMotPushSetting } from './endpoints/mot-push';

import type { Endpoint } from './endpoint';

/**
 * The API by area, each implemented whole by the server (`implementArea`): an endpoint does not compile without its
 * handler (ADR 0022). `customer` is served by modules/client, `settings` by modules/staff.
 */
export const contract = {
  auth: { startSignIn, loginQywx, resumeSession, signOut, signOutEverywhere, getCorpConfig },
  wecom: { getJsSdkSign },
  staff: { getDefaultCcy, configureDefaultCcy },
  settings: { getCurrencyExchangeRate, isFold },
  customer: {
    getProfile,
    getBaseInfo,
    getDynamic,
    getTimeline,
    getAsset,
    getHolding,
    getTrade,
    getWithdrawalDeposit,
    getTransfer,
    updateProfile,
    getReach,
    revealPhone,
  },
  manage: { getChannel, searchCustomers, statCustomers },
  shortcuts: { getShortcuts, setClientPin, recordClientOpened, forgetRecentSearches, saveFilter, deleteSavedFilter },
  kyc: { kycSearch, kycBind, kycUnbind, hasKyc },
  mot: {
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
    getRankedToday,
    getEventRank,
    snoozeEvent,
  },
  motPush: { getMotPushSetting, setMotPushSetting },
  audit: { getMyAuditTrail },
  contact: { addContactRecord, reviseContactRecord, getContactRecord, listContactRecords, exportContactRecords },
} as const satisfies Record<string, Record<string, Endpoint>>;

export type Contract = typeof contract;
export type AreaName = keyof Contract;

/** Every endpoint, flat: the web calls them by name and the malformed-input and authorisation sweeps walk them all. */
export const endpoints = Object.assign({}, ...Object.values(contract)) as AllAreas<Contract>;

/** The areas' endpoints in one object type (the intersection of the areas). */
type AllAreas<Areas> = { [Area in keyof Areas]: (area: Areas[Area]) => void }[keyof Areas] extends (area: infer All) => void ? All : never;

export type EndpointName = keyof typeof endpoints;
