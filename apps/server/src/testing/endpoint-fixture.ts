import { endpoints, type Endpoint, type EndpointName } from '@broker/contract';
import type { DatabaseHandle } from '../db/client';
import { seedDemoData } from '../db/seed';
import { runMotRules } from '../modules/mot';
import { addDays, hongKongDay } from '@broker/domain';
import { signInAs, type SignedIn } from './test-app';

/**
 * Seeded data and a valid request for every endpoint, for the sweeps that walk the whole contract
 * (authorisation matrix, hostile text). `validInputs` is a full Record over the registry, so a new
 * endpoint does not compile until it says how to call it.
 */

export type { EndpointName };

/** Followed by chanwaiman in the emulator and bound to nobody: what a valid bind binds. */
export const BINDABLE_CONTACT = 'wmEmu0001HoKwokLeung';
/** Bound (directly in the database) to a client of chanwaiman: what a valid unbind removes. */
export const OWN_BOUND_CONTACT = 'wmFixtureOwnBound';
/** Bound to a client of leekaying. */
export const FOREIGN_BOUND_CONTACT = 'wmFixtureForeignBound';

export interface EndpointFixture {
  database: DatabaseHandle;
  corpId: number;
  staffIds: Record<string, number>;
  /** Clients of chanwaiman, the caller of every valid request. */
  ownCustomerIds: number[];
  /** A client of leekaying, in the same corp. */
  foreignCustomerId: number;
  /** A client of chanwaiman bound to nothing (kycBind's target). */
  bindableCustomerId: number;
  /** A new pending event of a client of `owner`. */
  freshEvent(owner?: 'chanwaiman' | 'leekaying'): Promise<number>;
  /** A new contact record (unlocked, by the client's manager) about a client of `owner`: its id and edits, as revise takes them. */
  freshRecord(owner?: 'chanwaiman' | 'leekaying'): Promise<{ recordId: number; edits: number }>;
  /** The client's current edit version (updateProfile needs it). */
  versionOf(customerId: number): Promise<number>;
  /** Makes `contact` bound to `customerId` (and nothing else), as the fixture's starting point. */
  bindDirectly(contact: string, customerId: number): Promise<void>;
  unbindDirectly(contact: string): Promise<void>;
  /** A new saved filter of `owner` (issue 22.6): its id. */
  freshSavedFilter(owner?: 'chanwaiman' | 'leekaying'): Promise<number>;
}

const TODAY = hongKongDay();

export async function seedEndpointFixture(database: DatabaseHandle, customers = 60): Promise<EndpointFixture> {
  await seedDemoData(database, { customers, seed: 21, asOf: TODAY });
  await runMotRules(database, { asOf: TODAY });
  const staffRows = await database.query<{ id: number; wecom_user_id: string; corp_id: number }>(
    `select s.id, s.wecom_user_id, s.corp_id from staff s join corp c on c.id = s.corp_id where c.code = 'fxhl'`,
  );
  const staffIds = Object.fromEntries(staffRows.map((row) => [row.wecom_user_id, Number(row.id)]));
  const corpId = Number(staffRows[0]!.corp_id);
  const customersOf = async (userid: string) =>
    (
      await database.query<{ id: number }>('select id::float8 as id from customer where staff_id = $1 order by id limit 6', [
        staffIds[userid],
      ])
    ).map((row) => Number(row.id));
  const ownCustomerIds = await customersOf('chanwaiman');
  const [foreignCustomerId] = await customersOf('leekaying');
  if (ownCustomerIds.length < 4 || !foreignCustomerId) throw new Error('endpoint fixture: the seed gave too few clients');

  const unbindDirectly = async (contact: string) => {
    await database.query('delete from kyc_binding where corp_id = $1 and external_user_id = $2', [corpId, contact]);
  };
  const bindDirectly = async (contact: string, customerId: number) => {
    await unbindDirectly(contact);
    await database.query('delete from kyc_binding where corp_id = $1 and customer_id = $2', [corpId, customerId]);
    await database.query(
      `insert into kyc_binding (corp_id, external_user_id, customer_id, bound_by_staff_id)
       select corp_id, $2, id, staff_id from customer where corp_id = $1 and id = $3`,
      [corpId, contact, customerId],
    );
  };
  await bindDirectly(OWN_BOUND_CONTACT, ownCustomerIds[1]!);
  await bindDirectly(FOREIGN_BOUND_CONTACT, foreignCustomerId);

  let eventSerial = 0;
  return {
    database,
    corpId,
    staffIds,
    ownCustomerIds,
    foreignCustomerId,
    bindableCustomerId: ownCustomerIds[2]!,
    async freshEvent(owner = 'chanwaiman') {
      eventSerial += 1;
      const customerId = owner === 'chanwaiman' ? ownCustomerIds[3]! : foreignCustomerId;
      const [row] = await database.query<{ id: number }>(
        `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts)
         select corp_id, 'birthday', id, staff_id, $2, $3::date, '{}'::jsonb from customer where id = $1
         returning id::float8 as id`,
        [customerId, `fixture-${Date.now()}-${eventSerial}`, TODAY],
      );
      return Number(row!.id);
    },
    async freshRecord(owner = 'chanwaiman') {
      const customerId = owner === 'chanwaiman' ? ownCustomerIds[3]! : foreignCustomerId;
      const [row] = await database.query<{ id: number }>(
        `insert into contact_record (corp_id, customer_id, staff_id, channel, purpose, note, served_at, locks_at)
         select corp_id, id, staff_id, 'phone', 'service', 'written by the endpoint fixture', now(), now() + interval '1 day'
           from customer where id = $1
         returning id::float8 as id`,
        [customerId],
      );
      return { recordId: Number(row!.id), edits: 0 };
    },
    async versionOf(customerId) {
      const [row] = await database.query<{ version: number }>('select version from customer where id = $1', [customerId]);
      return Number(row!.version);
    },
    bindDirectly,
    unbindDirectly,
    async freshSavedFilter(owner = 'chanwaiman') {
      eventSerial += 1;
      const [row] = await database.query<{ id: number }>(
        `insert into staff_saved_filter (corp_id, staff_id, name, filters) values ($1, $2, $3, '{"ccy":"HKD"}'::jsonb)
         returning id::float8 as id`,
        [corpId, staffIds[owner], `fixture ${Date.now()}-${eventSerial}`],
      );
      return Number(row!.id);
    },
  };
}

type InputMaker = (fixture: EndpointFixture) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** A request each endpoint answers with code "0" for chanwaiman; writes reset their target first, so each may run again. */
export const validInputs: Record<EndpointName, InputMaker> = {
  // Public: a real code needs the OAuth round trip and its sign-in cookie; without one this is refused (080004), as the matrix expects.
  loginQywx: () => ({ code: 'not-a-real-code', state: 'notTheStateOfThisBrowser' }),
  getCorpConfig: () => ({ corpCode: 'fxhl' }),
  getJsSdkSign: () => ({ url: 'http://127.0.0.1/client/manage/list' }),
  getDefaultCcy: () => ({}),
  configureDefaultCcy: () => ({ ccy: 'USD' }),
  getCurrencyExchangeRate: () => ({}),
  isFold: () => ({}),
  kycSearch: () => ({ keyword: 'a' }),
  kycBind: async (fixture) => {
    await fixture.unbindDirectly(BINDABLE_CONTACT);
    await fixture.database.query('delete from kyc_binding where customer_id = $1', [fixture.bindableCustomerId]);
    return { externalUserId: BINDABLE_CONTACT, customerId: fixture.bindableCustomerId };
  },
  kycUnbind: async (fixture) => {
    await fixture.bindDirectly(OWN_BOUND_CONTACT, fixture.ownCustomerIds[1]!);
    return { externalUserId: OWN_BOUND_CONTACT };
  },
  // Bound to one of the caller's own customers (an unbind cell may have run first): answered even though WeCom does not know it.
  hasKyc: async (fixture) => {
    await fixture.bindDirectly(OWN_BOUND_CONTACT, fixture.ownCustomerIds[1]!);
    return { externalUserId: OWN_BOUND_CONTACT };
  },
  getProfile: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getBaseInfo: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getDynamic: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  // Every kind, trades too: each branch of the timeline's statement is switched on.
  getTimeline: (fixture) => ({
    customerId: fixture.ownCustomerIds[0],
    kinds: ['contact', 'mot', 'kyc', 'profileEdit', 'money', 'transfer', 'trade'],
  }),
  getAsset: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getHolding: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getTrade: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getWithdrawalDeposit: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getTransfer: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  getReach: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  revealPhone: (fixture) => ({ customerId: fixture.ownCustomerIds[0], purpose: 'view' }),
  updateProfile: async (fixture) => ({
    customerId: fixture.ownCustomerIds[0],
    version: await fixture.versionOf(fixture.ownCustomerIds[0]!),
    remark: 'checked by the endpoint fixture',
  }),
  getChannel: () => ({}),
  searchCustomers: () => ({}),
  statCustomers: () => ({}),
  getShortcuts: () => ({}),
  setClientPin: (fixture) => ({ customerId: fixture.ownCustomerIds[0], pinned: true }),
  recordClientOpened: (fixture) => ({ customerId: fixture.ownCustomerIds[0], search: 'chan' }),
  forgetRecentSearches: () => ({ search: 'chan' }),
  saveFilter: async (fixture) => ({
    filterId: await fixture.freshSavedFilter(),
    name: `r${Date.now()}`,
    filters: { statuses: ['active'] },
  }),
  deleteSavedFilter: async (fixture) => ({ filterId: await fixture.freshSavedFilter() }),
  getTodoDates: () => ({}),
  getTodoClients: () => ({}),
  markEventsSeen: async (fixture) => ({ eventIds: [await fixture.freshEvent()] }),
  handleEvent: async (fixture) => ({ eventId: await fixture.freshEvent(), channel: 'phone', note: 'called the client' }),
  getTodoTaskCount: () => ({}),
  getTodoTaskDetail: async (fixture) => ({ eventId: await fixture.freshEvent() }),
  getMinCashIO: () => ({}),
  setMinCashIO: () => ({ minCashIO: 150_000 }),
  searchServiceHistory: () => ({ keyword: 'client' }),
  getClientHistory: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  setFold: () => ({ isFold: 'true' }),
  getRankedToday: () => ({}),
  getEventRank: async (fixture) => ({ eventId: await fixture.freshEvent() }),
  snoozeEvent: async (fixture) => ({ eventId: await fixture.freshEvent(), until: addDays(TODAY, 1), reason: 'client_unavailable' }),
  getMotPushSetting: () => ({}),
  // Both fields, so every statement of the endpoint runs (the language as the seed has it: the cards stay in zh-CN).
  setMotPushSetting: () => ({ push: true, language: 'zh-CN' }),
  getMyAuditTrail: () => ({}),
  addContactRecord: (fixture) => ({
    customerId: fixture.ownCustomerIds[0],
    channel: 'phone',
    purpose: 'service',
    note: 'called the client',
  }),
  reviseContactRecord: async (fixture) => ({
    ...(await fixture.freshRecord()),
    channel: 'meeting',
    purpose: 'review',
    note: 'met the client instead',
  }),
  getContactRecord: async (fixture) => ({ recordId: (await fixture.freshRecord()).recordId }),
  listContactRecords: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  exportContactRecords: (fixture) => ({ customerId: fixture.ownCustomerIds[0] }),
  startSignIn: () => ({ agentCode: 'khzl', redirectPage: '/client/manage/list' }),
  // The session comes from the caller's cookie: a new token for it.
  resumeSession: () => ({}),
  signOut: () => ({}),
  signOutEverywhere: () => ({}),
};

/** Endpoints whose success ends the caller's sessions: sweeps call them with a session of their own. */
const SESSION_ENDING: readonly EndpointName[] = ['signOut', 'signOutEverywhere'];

/**
 * Whom a sweep calls `name` as: `usual`, except that an endpoint in SESSION_ENDING gets a new session
 * of a staff member no sweep uses otherwise (wongchishing), so the sweep's own sessions outlive it.
 */
export const sweepCaller = async (baseUrl: string, name: EndpointName, usual: SignedIn, corpCode?: string): Promise<SignedIn> =>
  SESSION_ENDING.includes(name) ? signInAs(baseUrl, 'wongchishing', corpCode ? { corpCode } : {}) : usual;

/** The fields that name something owned by one staff member: a client, an event, a chat contact. */
export const OWNED_RESOURCE_FIELDS = ['customerId', 'eventId', 'eventIds', 'externalUserId', 'recordId', 'filterId'] as const;

export const requestFieldsOf = (endpoint: Endpoint) =>
  Object.keys((endpoint.request as unknown as { shape?: Record<string, unknown> }).shape ?? {});

export const takesOwnedResource = (endpoint: Endpoint) =>
  requestFieldsOf(endpoint).some((field) => (OWNED_RESOURCE_FIELDS as readonly string[]).includes(field));

/** The same request aimed at leekaying's client, event or contact (only for endpoints that take one). */
export const foreignInputs: Partial<Record<EndpointName, InputMaker>> = {
  kycBind: async (fixture) => {
    await fixture.unbindDirectly(BINDABLE_CONTACT);
    return { externalUserId: BINDABLE_CONTACT, customerId: fixture.foreignCustomerId };
  },
  kycUnbind: () => ({ externalUserId: FOREIGN_BOUND_CONTACT }),
  hasKyc: () => ({ externalUserId: FOREIGN_BOUND_CONTACT }),
  getProfile: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getBaseInfo: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getDynamic: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getTimeline: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getAsset: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getHolding: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getTrade: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getWithdrawalDeposit: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  getTransfer: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  updateProfile: async (fixture) => ({
    customerId: fixture.foreignCustomerId,
    version: await fixture.versionOf(fixture.foreignCustomerId),
    remark: 'written by someone else',
  }),
  markEventsSeen: async (fixture) => ({ eventIds: [await fixture.freshEvent('leekaying')] }),
  handleEvent: async (fixture) => ({ eventId: await fixture.freshEvent('leekaying'), channel: 'phone', note: 'not mine' }),
  getTodoTaskDetail: async (fixture) => ({ eventId: await fixture.freshEvent('leekaying') }),
  getClientHistory: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  setClientPin: (fixture) => ({ customerId: fixture.foreignCustomerId, pinned: true }),
  recordClientOpened: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  saveFilter: async (fixture) => ({ filterId: await fixture.freshSavedFilter('leekaying'), name: 'not mine' }),
  deleteSavedFilter: async (fixture) => ({ filterId: await fixture.freshSavedFilter('leekaying') }),
  getEventRank: async (fixture) => ({ eventId: await fixture.freshEvent('leekaying') }),
  snoozeEvent: async (fixture) => ({ eventId: await fixture.freshEvent('leekaying'), until: addDays(TODAY, 1), reason: 'client_asked' }),
  addContactRecord: (fixture) => ({ customerId: fixture.foreignCustomerId, channel: 'phone', purpose: 'service', note: 'not mine' }),
  reviseContactRecord: async (fixture) => ({
    ...(await fixture.freshRecord('leekaying')),
    channel: 'meeting',
    purpose: 'review',
    note: 'not mine',
  }),
  getContactRecord: async (fixture) => ({ recordId: (await fixture.freshRecord('leekaying')).recordId }),
  listContactRecords: (fixture) => ({ customerId: fixture.foreignCustomerId }),
  exportContactRecords: (fixture) => ({ customerId: fixture.foreignCustomerId }),
};

export const endpointEntries = () => Object.entries(endpoints) as [EndpointName, Endpoint][];
