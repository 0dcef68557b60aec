import { contract, type Endpoint } from '@broker/contract';

const { customer, manage, mot, contact, audit } = contract;

/**
 * The endpoints whose statements may run on a streaming standby when DATABASE_READ_URL is set (ADR
 * 0052): page reads that write nothing and may be a moment behind the primary — never behind the
 * caller's own writes, which the read-your-writes cookie makes them wait for. Kept here, on the
 * server, rather than as a flag in the contract, which the web bundle carries.
 *
 * Left on the primary on purpose: everything that writes (updateProfile, revealPhone's audit row,
 * recordClientOpened's recent, exportContactRecords' audit row, the MOT writes); sign-in and the
 * session (they run before any handler anyway); hasKyc, asked right after a bind to decide what the
 * page offers; getReach, which leads to a call or a reveal; the settings pages and shortcuts, one
 * small row each; and KYC search, which binds a customer from what it finds.
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
