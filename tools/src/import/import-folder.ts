import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import type { z } from 'zod';
import { idNumberLast4, maskIdNumber, normalisePhone } from '@broker/domain';
import { refreshCustomerSummaries, runMotForCustomers, runMotRules, type DatabaseHandle } from '@broker/server';
import {
  cashBalanceRow,
  customerRow,
  describeIssue,
  exchangeRateRow,
  holdingRow,
  moneyMovementRow,
  priceRow,
  tradeRow,
  transferRow,
  type CashBalanceRow,
  type CustomerRow,
  type ExchangeRateRow,
  type HoldingRow,
  type MoneyMovementRow,
  type PriceRow,
  type TradeRow,
  type TransferRow,
} from './row-schemas';
import { Utf8LineCheck } from './utf8-line-check';

export type RowOutcome = 'inserted' | 'updated' | 'unchanged';

export interface FileReport {
  file: string;
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface RowError {
  file: string;
  /** 1-based line in the file (the header is line 1). */
  line: number;
  reason: string;
}

export interface ImportReport {
  files: FileReport[];
  errors: RowError[];
  /** Customers whose summary (total assets, last trade) changed. */
  summariesRefreshed: number;
  /** MOT events the imported facts produced (large deposits, transfers, losses …). */
  motEventsCreated: number;
}

/** The reason given for a line whose bytes are not UTF-8 (a file saved as GBK or Big5, stray bytes). */
export const NOT_UTF8 = 'not UTF-8';

/** A row that is well-formed but refers to something that does not exist, or breaks a business rule. */
class RowRejected extends Error {}

interface AccountRef {
  id: number;
  customerId: number;
  type: string;
}

interface ImportContext {
  database: DatabaseHandle;
  corpId: number;
  staffByUserId: Map<string, number>;
  accounts: Map<string, AccountRef>;
  securities: Map<string, { id: number; currency: string }>;
  touchedCustomers: Set<number>;
  /** Customers with new or changed money movements or transfers: MOT facts, though no summary change. */
  factsChanged: Set<number>;
}

interface FileSpec<Row> {
  file: string;
  schema: z.ZodType<Row>;
  required: string[];
  apply(context: ImportContext, row: Row): Promise<RowOutcome>;
}

const spec = <Row>(value: FileSpec<Row>) => value as unknown as FileSpec<unknown>;

/** Files in the order they are applied: reference data first, then what refers to it. */
export const IMPORT_FILES: FileSpec<unknown>[] = [
  spec<ExchangeRateRow>({
    file: 'exchange_rates.csv',
    schema: exchangeRateRow,
    required: ['currency', 'rate_date', 'rate'],
    apply: applyExchangeRate,
  }),
  spec<PriceRow>({
    file: 'prices.csv',
    schema: priceRow,
    required: ['symbol', 'market', 'name_cn', 'name_en', 'currency', 'lot_size', 'last_price', 'prev_close', 'price_date'],
    apply: applyPrice,
  }),
  spec<CustomerRow>({
    file: 'customers.csv',
    schema: customerRow,
    required: [
      'customer_no',
      'staff_userid',
      'channel',
      'name_cn',
      'name_en',
      'id_doc_type',
      'id_doc_number',
      'risk_level',
      'status',
      'open_date',
      'account_no',
      'account_type',
    ],
    apply: applyCustomer,
  }),
  spec<CashBalanceRow>({
    file: 'cash_balances.csv',
    schema: cashBalanceRow,
    required: ['account_no', 'currency', 'balance'],
    apply: applyCashBalance,
  }),
  spec<HoldingRow>({
    file: 'holdings.csv',
    schema: holdingRow,
    required: ['account_no', 'symbol', 'quantity', 'avg_cost'],
    apply: applyHolding,
  }),
  spec<TradeRow>({
    file: 'trades.csv',
    schema: tradeRow,
    required: ['trade_ref', 'account_no', 'symbol', 'side', 'quantity', 'price', 'fee', 'currency', 'traded_at', 'settle_date'],
    apply: applyTrade,
  }),
  spec<MoneyMovementRow>({
    file: 'money_movements.csv',
    schema: moneyMovementRow,
    required: ['movement_ref', 'account_no', 'direction', 'currency', 'amount', 'method', 'occurred_at'],
    apply: applyMoneyMovement,
  }),
  spec<TransferRow>({
    file: 'transfers.csv',
    schema: transferRow,
    required: ['transfer_ref', 'account_no', 'symbol', 'direction', 'quantity', 'counterparty', 'occurred_at'],
    apply: applyTransfer,
  }),
];

/**
 * Imports whichever of the known CSV files exist in `folder`. Each row is validated and applied
 * on its own: a bad row is reported (file, line, reason) and the rest carry on. Every write is an
 * upsert on a natural key that only changes rows whose values differ, so a repeat changes nothing.
 */
export async function importFolder(database: DatabaseHandle, folder: string, options: { corpCode: string }): Promise<ImportReport> {
  const [corp] = await database.query<{ id: number }>('select id from corp where code = $1', [options.corpCode]);
  if (!corp) throw new Error(`corp ${options.corpCode} does not exist: start the server once or run the seed first`);
  const staffRows = await database.query<{ id: number; wecom_user_id: string }>('select id, wecom_user_id from staff where corp_id = $1', [
    corp.id,
  ]);
  const context: ImportContext = {
    database,
    corpId: corp.id,
    staffByUserId: new Map(staffRows.map((row) => [row.wecom_user_id, row.id])),
    accounts: new Map(),
    securities: new Map(),
    touchedCustomers: new Set(),
    factsChanged: new Set(),
  };
  const report: ImportReport = { files: [], errors: [], summariesRefreshed: 0, motEventsCreated: 0 };
  let ratesOrPricesChanged = false;

  for (const fileSpec of IMPORT_FILES) {
    const path = join(folder, fileSpec.file);
    if (!existsSync(path)) continue;
    const fileReport: FileReport = { file: fileSpec.file, rows: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
    report.files.push(fileReport);
    const reject = (line: number, reason: string) => {
      fileReport.rejected++;
      report.errors.push({ file: fileSpec.file, line, reason });
    };
    // Bytes that are not UTF-8 are refused by line, never stored as U+FFFD.
    const utf8 = new Utf8LineCheck();
    const parser = createReadStream(path)
      .pipe(utf8)
      .pipe(parse({ columns: true, bom: true, trim: true, skip_empty_lines: true, info: true, relax_column_count: true }));
    let headerChecked = false;
    /** The last line of the record before (the header's, at first): a record may span lines. */
    let previousEnd = 1;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
        if (!headerChecked) {
          headerChecked = true;
          if (utf8.badLines.has(1)) {
            reject(1, `${NOT_UTF8}; file skipped`);
            break;
          }
          const missing = fileSpec.required.filter((column) => !(column in record));
          if (missing.length > 0) {
            reject(1, `missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}; file skipped`);
            break;
          }
        }
        fileReport.rows++;
        const recordLines = { from: previousEnd + 1, to: info.lines };
        previousEnd = info.lines;
        const badLine = utf8.firstBadLine(recordLines.from, recordLines.to);
        if (badLine !== null) {
          reject(badLine, NOT_UTF8);
          continue;
        }
        const parsed = fileSpec.schema.safeParse(record);
        if (!parsed.success) {
          reject(info.lines, describeIssue(parsed.error));
          continue;
        }
        try {
          const outcome = await fileSpec.apply(context, parsed.data);
          fileReport[outcome]++;
          if (outcome !== 'unchanged' && (fileSpec.file === 'exchange_rates.csv' || fileSpec.file === 'prices.csv'))
            ratesOrPricesChanged = true;
        } catch (error) {
          if (error instanceof RowRejected) reject(info.lines, error.message);
          else throw error;
        }
      }
    } catch (error) {
      // csv-parse errors (unclosed quote, …) carry the line; everything before it is already applied.
      const line = (error as { lines?: number }).lines ?? 0;
      reject(line, `unreadable CSV: ${(error as Error).message}`);
    }
    // A header alone (no rows) is still checked.
    if (!headerChecked && utf8.badLines.has(1)) reject(1, `${NOT_UTF8}; file skipped`);
  }

  // New rates or prices move every customer's totals; otherwise only the customers touched.
  report.summariesRefreshed = ratesOrPricesChanged
    ? await refreshCustomerSummaries(database)
    : await refreshCustomerSummaries(database, [...context.touchedCustomers]);
  // Imported facts are data changes: MOT rules run now rather than at the next daily sweep.
  if (ratesOrPricesChanged) report.motEventsCreated = (await runMotRules(database)).total;
  else {
    const changed = [...new Set([...context.touchedCustomers, ...context.factsChanged])];
    if (changed.length > 0) report.motEventsCreated = (await runMotForCustomers(database, changed)).total;
  }
  return report;
}

const outcomeOf = (rows: { inserted: boolean }[]): RowOutcome =>
  rows.length === 0 ? 'unchanged' : rows[0]!.inserted ? 'inserted' : 'updated';

async function applyExchangeRate({ database }: ImportContext, row: ExchangeRateRow): Promise<RowOutcome> {
  const rows = await database.query<{ inserted: boolean }>(
    `insert into exchange_rate (currency, rate_date, rate, source) values ($1, $2, $3, $4)
     on conflict (currency, rate_date) do update set rate = excluded.rate, source = excluded.source
     where (exchange_rate.rate, exchange_rate.source) is distinct from (excluded.rate, excluded.source)
     returning (xmax = 0) as inserted`,
    [row.currency, row.rate_date, row.rate, row.source ?? 'import'],
  );
  return outcomeOf(rows);
}

async function applyPrice({ database }: ImportContext, row: PriceRow): Promise<RowOutcome> {
  const rows = await database.query<{ inserted: boolean }>(
    `insert into security (symbol, market, name_cn, name_en, currency, lot_size, last_price, prev_close, price_date)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (symbol) do update set market = excluded.market, name_cn = excluded.name_cn, name_en = excluded.name_en,
       currency = excluded.currency, lot_size = excluded.lot_size, last_price = excluded.last_price,
       prev_close = excluded.prev_close, price_date = excluded.price_date
     where (security.market, security.name_cn, security.name_en, security.currency, security.lot_size, security.last_price, security.prev_close, security.price_date)
       is distinct from (excluded.market, excluded.name_cn, excluded.name_en, excluded.currency, excluded.lot_size, excluded.last_price, excluded.prev_close, excluded.price_date)
     returning (xmax = 0) as inserted`,
    [row.symbol, row.market, row.name_cn, row.name_en, row.currency, row.lot_size, row.last_price, row.prev_close, row.price_date],
  );
  return outcomeOf(rows);
}

async function applyCustomer(context: ImportContext, row: CustomerRow): Promise<RowOutcome> {
  const { database, corpId } = context;
  const staffId = context.staffByUserId.get(row.staff_userid);
  if (staffId === undefined) throw new RowRejected(`staff_userid ${row.staff_userid} is not a staff member of this corp`);
  const [existingAccount] = await database.query<{ customer_no: string }>(
    'select c.customer_no from account a join customer c on c.id = a.customer_id where a.corp_id = $1 and a.account_no = $2',
    [corpId, row.account_no],
  );
  if (existingAccount && existingAccount.customer_no !== row.customer_no) {
    throw new RowRejected(`account_no ${row.account_no} belongs to customer ${existingAccount.customer_no}`);
  }
  const phone = row.phone ? normalisePhone(row.phone) : null;
  const masked = maskIdNumber(row.id_doc_number);
  const last4 = idNumberLast4(row.id_doc_number);
  const tags = (row.tags ?? '')
    .split(';')
    .map((tag) => tag.trim())
    .filter(Boolean);
  const values = [
    corpId,
    staffId,
    row.customer_no,
    row.channel,
    row.name_cn,
    row.name_en,
    row.gender ?? null,
    phone?.phone ?? null,
    phone?.digits ?? null,
    row.email ?? null,
    row.id_doc_type,
    masked,
    last4,
    row.id_doc_expiry ?? null,
    row.birthday ?? null,
    row.risk_level,
    row.risk_assessed_on ?? null,
    row.status,
    row.open_date,
    row.closed_date ?? null,
    tags,
    row.remark ?? null,
  ];
  const compared = [
    'staff_id',
    'channel',
    'name_cn',
    'name_en',
    'gender',
    'phone',
    'phone_digits',
    'email',
    'id_doc_type',
    'id_doc_masked',
    'id_doc_last4',
    'id_doc_expiry',
    'birthday',
    'risk_level',
    'risk_assessed_on',
    'status',
    'open_date',
    'closed_date',
    'tags',
    'remark',
  ];
  const changed = await database.query<{ id: number; inserted: boolean }>(
    `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, gender, phone, phone_digits, email, id_doc_type,
       id_doc_masked, id_doc_last4, id_doc_expiry, birthday, risk_level, risk_assessed_on, status, open_date, closed_date, tags, remark)
     values (${values.map((_, i) => `$${i + 1}`).join(', ')})
     on conflict (corp_id, customer_no) do update set ${compared.map((column) => `${column} = excluded.${column}`).join(', ')},
       version = customer.version + 1, updated_at = now()
     where (${compared.map((column) => `customer.${column}`).join(', ')}) is distinct from (${compared.map((column) => `excluded.${column}`).join(', ')})
     returning id, (xmax = 0) as inserted`,
    values,
  );
  let customerId = changed[0]?.id;
  if (customerId === undefined) {
    const [row2] = await database.query<{ id: number }>('select id from customer where corp_id = $1 and customer_no = $2', [
      corpId,
      row.customer_no,
    ]);
    customerId = row2!.id;
  }
  customerId = Number(customerId);
  const accountStatus = row.status === 'closed' ? 'closed' : 'active';
  const accountChanged = await database.query<{ id: number; inserted: boolean }>(
    `insert into account (corp_id, customer_id, account_no, type, status, open_date) values ($1, $2, $3, $4, $5, $6)
     on conflict (corp_id, account_no) do update set type = excluded.type, status = excluded.status, open_date = excluded.open_date
     where (account.type, account.status, account.open_date) is distinct from (excluded.type, excluded.status, excluded.open_date)
     returning id, (xmax = 0) as inserted`,
    [corpId, customerId, row.account_no, row.account_type, accountStatus, row.open_date],
  );
  context.accounts.delete(row.account_no);
  if (changed.length > 0 || accountChanged.length > 0) context.touchedCustomers.add(customerId);
  if (changed[0]?.inserted) return 'inserted';
  return changed.length > 0 || accountChanged.length > 0 ? 'updated' : 'unchanged';
}

async function accountOf(context: ImportContext, accountNo: string): Promise<AccountRef> {
  const cached = context.accounts.get(accountNo);
  if (cached) return cached;
  const [row] = await context.database.query<{ id: string; customer_id: string; type: string }>(
    'select id, customer_id, type from account where corp_id = $1 and account_no = $2',
    [context.corpId, accountNo],
  );
  if (!row) throw new RowRejected(`account_no ${accountNo} does not exist (import it in customers.csv first)`);
  const account = { id: Number(row.id), customerId: Number(row.customer_id), type: row.type };
  context.accounts.set(accountNo, account);
  return account;
}

async function securityOf(context: ImportContext, symbol: string) {
  const cached = context.securities.get(symbol);
  if (cached) return cached;
  const [row] = await context.database.query<{ id: number; currency: string }>('select id, currency from security where symbol = $1', [
    symbol,
  ]);
  if (!row) throw new RowRejected(`symbol ${symbol} is not in the security master (add it in prices.csv)`);
  context.securities.set(symbol, row);
  return row;
}

async function applyCashBalance(context: ImportContext, row: CashBalanceRow): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  if (Number(row.balance) < 0 && account.type !== 'margin')
    throw new RowRejected(`balance ${row.balance} is negative on cash account ${row.account_no}`);
  const rows = await context.database.query<{ inserted: boolean }>(
    `insert into cash_balance (account_id, currency, balance) values ($1, $2, $3)
     on conflict (account_id, currency) do update set balance = excluded.balance
     where cash_balance.balance is distinct from excluded.balance
     returning (xmax = 0) as inserted`,
    [account.id, row.currency, row.balance],
  );
  if (rows.length > 0) context.touchedCustomers.add(account.customerId);
  return outcomeOf(rows);
}

/** Holdings are the back office's position snapshot; quantity 0 closes the position. */
async function applyHolding(context: ImportContext, row: HoldingRow): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const security = await securityOf(context, row.symbol);
  if (row.quantity === 0) {
    const deleted = await context.database.query('delete from holding where account_id = $1 and security_id = $2 returning 1', [
      account.id,
      security.id,
    ]);
    if (deleted.length > 0) context.touchedCustomers.add(account.customerId);
    return deleted.length > 0 ? 'updated' : 'unchanged';
  }
  const rows = await context.database.query<{ inserted: boolean }>(
    `insert into holding (account_id, customer_id, security_id, quantity, avg_cost) values ($1, $2, $3, $4, $5)
     on conflict (account_id, security_id) do update set quantity = excluded.quantity, avg_cost = excluded.avg_cost
     where (holding.quantity, holding.avg_cost) is distinct from (excluded.quantity, excluded.avg_cost)
     returning (xmax = 0) as inserted`,
    [account.id, account.customerId, security.id, row.quantity, row.avg_cost],
  );
  if (rows.length > 0) context.touchedCustomers.add(account.customerId);
  return outcomeOf(rows);
}

async function applyTrade(context: ImportContext, row: TradeRow): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const security = await securityOf(context, row.symbol);
  if (row.currency !== security.currency)
    throw new RowRejected(`currency ${row.currency} does not match ${row.symbol}'s trading currency ${security.currency}`);
  if (row.settle_date < row.traded_at.slice(0, 10)) throw new RowRejected('settle_date is before traded_at');
  const amount = row.amount ?? (Math.round(row.quantity * Number(row.price) * 100) / 100).toFixed(2);
  const rows = await context.database.query<{ inserted: boolean }>(
    `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date, external_ref)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     on conflict (account_id, external_ref) where external_ref is not null do update set security_id = excluded.security_id, side = excluded.side,
       quantity = excluded.quantity, price = excluded.price, amount = excluded.amount, fee = excluded.fee, currency = excluded.currency,
       traded_at = excluded.traded_at, settle_date = excluded.settle_date
     where (trade.security_id, trade.side, trade.quantity, trade.price, trade.amount, trade.fee, trade.currency, trade.traded_at, trade.settle_date)
       is distinct from (excluded.security_id, excluded.side, excluded.quantity, excluded.price, excluded.amount, excluded.fee, excluded.currency, excluded.traded_at, excluded.settle_date)
     returning (xmax = 0) as inserted`,
    [
      account.id,
      account.customerId,
      security.id,
      row.side,
      row.quantity,
      row.price,
      amount,
      row.fee,
      row.currency,
      row.traded_at,
      row.settle_date,
      row.trade_ref,
    ],
  );
  if (rows.length > 0) context.touchedCustomers.add(account.customerId);
  return outcomeOf(rows);
}

async function applyMoneyMovement(context: ImportContext, row: MoneyMovementRow): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const rows = await context.database.query<{ inserted: boolean }>(
    `insert into money_movement (account_id, customer_id, direction, currency, amount, method, occurred_at, external_ref)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (account_id, external_ref) where external_ref is not null do update set direction = excluded.direction,
       currency = excluded.currency, amount = excluded.amount, method = excluded.method, occurred_at = excluded.occurred_at
     where (money_movement.direction, money_movement.currency, money_movement.amount, money_movement.method, money_movement.occurred_at)
       is distinct from (excluded.direction, excluded.currency, excluded.amount, excluded.method, excluded.occurred_at)
     returning (xmax = 0) as inserted`,
    [account.id, account.customerId, row.direction, row.currency, row.amount, row.method, row.occurred_at, row.movement_ref],
  );
  if (rows.length > 0) context.factsChanged.add(account.customerId);
  return outcomeOf(rows);
}

async function applyTransfer(context: ImportContext, row: TransferRow): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const security = await securityOf(context, row.symbol);
  const rows = await context.database.query<{ inserted: boolean }>(
    `insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at, external_ref)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (account_id, external_ref) where external_ref is not null do update set security_id = excluded.security_id,
       direction = excluded.direction, quantity = excluded.quantity, counterparty = excluded.counterparty, occurred_at = excluded.occurred_at
     where (stock_transfer.security_id, stock_transfer.direction, stock_transfer.quantity, stock_transfer.counterparty, stock_transfer.occurred_at)
       is distinct from (excluded.security_id, excluded.direction, excluded.quantity, excluded.counterparty, excluded.occurred_at)
     returning (xmax = 0) as inserted`,
    [account.id, account.customerId, security.id, row.direction, row.quantity, row.counterparty, row.occurred_at, row.transfer_ref],
  );
  if (rows.length > 0) context.factsChanged.add(account.customerId);
  return outcomeOf(rows);
}
