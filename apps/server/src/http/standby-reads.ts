import { contract, type Endpoint } from '@broker/contract';

const { customer, manage, mot, contact, audit } = contract;

/**
 * Endpoints that may read from a standby (ADR 0052): writing nothing, a moment behind at most, never behind the
 * caller's writes. On the server, not in the contract the web carries. Left on the primary: every write,
 * sign-in, hasKyc (asked right after a bind), getReach, settings, shortcuts and KYC search.
 */
export const STANDBY_READS: ReadonlySet<Endpoint> = new Set<Endpoint>([
  manage.getChannel,
  manage.searchCustomers,
  manage.statCustomers,
  customer.getProfile,
  customer.getBaseInfo,
  customer.getDynamic,
  customer.getTimeline,
  customer.getAsset,
  customer.getHolding,
  customer.getTrade,
  customer.getWithdrawalDeposit,
  customer.getTransfer,
  mot.getTodoDates,
  mot.getTodoClients,
  mot.getTodoTaskCount,
  mot.getTodoTaskDetail,
  mot.searchServiceHistory,
  mot.getClientHistory,
  mot.getRankedToday,
  mot.getEventRank,
  contact.getContactRecord,
  contact.listContactRecords,
  audit.getMyAuditTrail,
]);
