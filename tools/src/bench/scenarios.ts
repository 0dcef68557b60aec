import {
  getAsset,
  getClientHistory,
  getHolding,
  getProfile,
  getRankedToday,
  getTimeline,
  getTodoClients,
  getTrade,
  getTransfer,
  getWithdrawalDeposit,
  handleEvent,
  searchCustomers,
  searchServiceHistory,
  statCustomers,
  type Endpoint,
} from '@broker/contract';
import { DEMO_STAFF } from '@broker/server';
import { callEndpoint, wireRequest, type EndpointInput } from './http-request';
import { HISTORY_KEYWORDS, paramStream, type BookSample, type Queryable } from './param-generator';
import type { EndpointGroup } from './targets';

/** One benchmarked endpoint (or one way of calling it) and where its inputs come from. */
export interface Scenario {
  name: string;
  group: EndpointGroup;
  endpoint: Endpoint;
  /** The next request's input: a fresh one from the seeded generator, or (warm cache) the next of a fixed rotation. */
  next(): EndpointInput;
  /** Inputs given that had been given before in this run (a warm-cache rotation repeats by design). */
  repeats(): number;
}

/** The honest scenarios: every request's parameters are new (see param-generator.ts). */
export const SCENARIO_ENDPOINTS = {
  'search:name': { group: 'list', endpoint: searchCustomers },
  'search:phone': { group: 'list', endpoint: searchCustomers },
  'search:account': { group: 'list', endpoint: searchCustomers },
  'search:filters': { group: 'list', endpoint: searchCustomers },
  'search:pages': { group: 'list', endpoint: searchCustomers },
  stat: { group: 'list', endpoint: statCustomers },
  getProfile: { group: 'detail', endpoint: getProfile },
  getAsset: { group: 'detail', endpoint: getAsset },
  getHolding: { group: 'detail', endpoint: getHolding },
  getTrade: { group: 'detail', endpoint: getTrade },
  getMoney: { group: 'detail', endpoint: getWithdrawalDeposit },
  getTransfer: { group: 'detail', endpoint: getTransfer },
  timeline: { group: 'detail', endpoint: getTimeline },
  'mot:todoClient': { group: 'mot', endpoint: getTodoClients },
  'mot:history': { group: 'mot', endpoint: searchServiceHistory },
  'mot:clientHistory': { group: 'mot', endpoint: getClientHistory },
  'mot:ranked': { group: 'mot', endpoint: getRankedToday },
} as const satisfies Record<string, { group: EndpointGroup; endpoint: Endpoint }>;

export type ScenarioName = keyof typeof SCENARIO_ENDPOINTS;
export const SCENARIO_NAMES = Object.keys(SCENARIO_ENDPOINTS) as ScenarioName[];

/** Fresh-parameter scenarios, each on its own seeded stream over the staff member's book. */
export function honestScenarios(names: readonly ScenarioName[], book: BookSample, seed: number): Scenario[] {
  return names.map((name) => {
    const stream = paramStream(name, book, seed);
    return { name, ...SCENARIO_ENDPOINTS[name], next: () => stream.next(), repeats: () => stream.repeats };
  });
}

export interface BenchStaff {
  staffId: number;
  corpId: number;
  userid: string;
  customers: number;
}

/** The WeCom emulator's staff member with the biggest book: the heaviest lists a real sign-in can see. */
export async function pickBenchStaff(database: Queryable): Promise<BenchStaff> {
  const [row] = await database.query<BenchStaff>(
    `select s.id as "staffId", s.corp_id as "corpId", s.wecom_user_id as userid, count(*)::int as customers
       from customer c join staff s on s.id = c.staff_id
      where s.wecom_user_id = any($1::text[])
      group by s.id order by customers desc, s.id limit 1`,
    [DEMO_STAFF.map((member) => member.userid)],
  );
  if (!row) throw new Error('no emulator staff member has customers: was the database seeded?');
  return row;
}

/** Service records as managers write them (mixed languages), for the history search to find; written through handleEvent. */
const SERVICE_NOTES: Array<{ channel: 'phone' | 'wecom' | 'meeting' | 'other'; note: string; outcome: string | null }> = [
  { channel: 'phone', note: 'Called to wish a happy birthday; asked about the HK market outlook', outcome: 'Client thanked us' },
  { channel: 'wecom', note: '微信跟进大额入金，建议分批建仓', outcome: '客户考虑中' },
  { channel: 'meeting', note: 'Met at the branch to renew the risk assessment', outcome: 'Risk level confirmed' },
  { channel: 'phone', note: '电话提醒身份证件即将到期，请尽快更新', outcome: '已预约更新' },
  { channel: 'wecom', note: 'Sent the dormant account reactivation offer', outcome: null },
  { channel: 'other', note: 'Reviewed the loss-making position and the stop-loss plan', outcome: 'Will hold' },
];

/** Handles `count` of the staff member's new events over HTTP, each with a service record. */
export async function writeServiceRecords(
  database: Queryable,
  staff: BenchStaff,
  count: number,
  baseUrl: string,
  authHeaders: Record<string, string>,
): Promise<number> {
  const events = await database.query<{ id: number }>(
    `select id::float8 as id from mot_event where staff_id = $1 and status = 'new' order by md5(id::text) limit $2`,
    [staff.staffId, count],
  );
  for (const [index, event] of events.entries()) {
    const record = SERVICE_NOTES[index % SERVICE_NOTES.length]!;
    await callEndpoint(
      baseUrl,
      wireRequest(handleEvent, { eventId: event.id, ...record, outcome: record.outcome ?? undefined }, authHeaders),
    );
  }
  return events.length;
}

/** The staff-scoped filter combinations a client manager actually taps, each with its sort. */
const FILTER_SETS: EndpointInput[] = [
  { statuses: ['active'] },
  { channels: ['online'], assetMin: 1_000_000 },
  { openDateFrom: '2025-01-01', sortBy: 'openDate' },
  { markets: ['US'], sortBy: 'lastTrade' },
  { hasHolding: false, statuses: ['active', 'dormant'] },
  { kycBound: false, assetMin: 100_000, assetMax: 5_000_000 },
  { statuses: ['dormant'], sortBy: 'lastTrade', sortOrder: 'asc' },
  {},
];
const withoutListOptions = ({ sortBy: _sortBy, sortOrder: _sortOrder, ...filters }: EndpointInput) => filters;

/**
 * The warm-cache cells: a rotation through at most `perScenario` inputs per endpoint (a spread sample of the book), which
 * the server's caches answer mostly from memory, as the benchmark did before fresh parameters. Compared, not judged.
 */
export async function buildWarmScenarios(database: Queryable, staff: BenchStaff, perScenario: number): Promise<Scenario[]> {
  const customers = await database.query<{ id: number; nameCn: string; nameEn: string; phoneDigits: string | null; accountNo: string }>(
    `select c.id::float8 as id, c.name_cn as "nameCn", c.name_en as "nameEn", c.phone_digits as "phoneDigits",
            (select a.account_no from account a where a.customer_id = c.id order by a.id limit 1) as "accountNo"
       from customer c where c.staff_id = $1 order by md5(c.id::text) limit $2`,
    [staff.staffId, perScenario],
  );
  if (customers.length === 0) throw new Error(`staff ${staff.userid} has no customers`);
  const pendingDays = await database.query<{ day: string }>(
    `select due_date::text as day from mot_event where staff_id = $1 and status <> 'handled'
      group by due_date order by count(*) desc, due_date limit 15`,
    [staff.staffId],
  );
  const eventCustomers = await database.query<{ id: number }>(
    `select customer_id::float8 as id from mot_event where staff_id = $1 group by customer_id order by md5(customer_id::text) limit $2`,
    [staff.staffId, perScenario],
  );
  const servedNames = await database.query<{ nameCn: string; nameEn: string }>(
    `select c.name_cn as "nameCn", c.name_en as "nameEn" from contact_record r join customer c on c.id = r.customer_id
      where r.staff_id = $1 order by r.id limit 10`,
    [staff.staffId],
  );

  const pages = (inputs: EndpointInput[]) => inputs.flatMap((input) => [1, 2, 3].map((pageNum) => ({ ...input, pageNum })));
  const byCustomer = customers.map((customer) => ({ customerId: customer.id }));
  // A manager types part of a name: two characters of the Chinese given name, or the English given name.
  const nameKeywords = customers.map((customer, index) =>
    index % 2 === 0 ? [...customer.nameCn].slice(1, 3).join('') : (customer.nameEn.split(' ')[1] ?? customer.nameEn),
  );
  // …or four to six digits from the middle of the local number.
  const phoneKeywords = customers
    .filter((customer) => customer.phoneDigits && customer.phoneDigits.length >= 10)
    .map((customer, index) => {
      const digits = customer.phoneDigits!;
      const length = index % 2 === 0 ? 4 : 6;
      return digits.slice(digits.length - 8, digits.length - 8 + length);
    });
  const todoInputs: EndpointInput[] = pendingDays.flatMap(({ day }) => [{ date: day }, { date: day, pageNum: 2 }]);
  const historyInputs: EndpointInput[] = [
    {},
    { pageNum: 2 },
    ...HISTORY_KEYWORDS.slice(0, 7).map((keyword) => ({ keyword })),
    ...servedNames.map((name, index) => ({
      keyword: index % 2 === 0 ? [...name.nameCn].slice(1, 3).join('') : name.nameEn.split(' ')[0]!,
    })),
    { rule: 'birthday' },
    { channel: 'phone' },
    { dateFrom: '2026-01-01', dateTo: '2026-12-31' },
  ];

  const rotations: Array<[name: ScenarioName, inputs: EndpointInput[]]> = [
    ['search:name', nameKeywords.map((keyword) => ({ keyword }))],
    ['search:phone', phoneKeywords.map((keyword) => ({ keyword }))],
    ['search:account', customers.map((customer) => ({ keyword: customer.accountNo }))],
    ['search:filters', pages(FILTER_SETS)],
    ['stat', [...FILTER_SETS.map(withoutListOptions), ...nameKeywords.slice(0, 16).map((keyword) => ({ keyword }))]],
    ['getProfile', byCustomer],
    ['getAsset', byCustomer],
    ['getHolding', byCustomer],
    ['getTrade', byCustomer],
    ['mot:todoClient', todoInputs],
    ['mot:history', historyInputs],
    ['mot:clientHistory', eventCustomers.map((customer) => ({ customerId: customer.id }))],
  ];
  return rotations
    .filter(([, inputs]) => inputs.length > 0)
    .map(([name, inputs]): Scenario => {
      let given = 0;
      return {
        name: `warm:${name}`,
        group: 'warm',
        endpoint: SCENARIO_ENDPOINTS[name].endpoint,
        next: () => inputs[given++ % inputs.length]!,
        repeats: () => Math.max(0, given - inputs.length),
      };
    });
}
