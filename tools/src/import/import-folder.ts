import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { z } from 'zod';
import { idNumberLast4, maskIdNumber, normalisePhone } from '@broker/domain';
import {
  enqueueMotPushes,
  refreshCustomerSummaries,
  runMotForCustomers,
  runMotRules,
  searchTerms,
  type DatabaseHandle,
} from '@broker/server';
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
} from './row-schemas';
import { Utf8LineCheck } from './utf8-line-check';

export type RowOutcome = 'inserted' | 'updated' | 'unchanged';

/** A file's rows read, and how many of them each outcome had. */
export type FileReport = { file: string } & Record<'rows' | RowOutcome | 'rejected', number>;

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
  /** Managers with a WeCom card queued for those events. */
  motCardsQueued: number;
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

/** What the rows of one import share: the corp, what they refer to (cached), and the customers they changed. */
const importContext = (database: DatabaseHandle, corpId: number, staffByUserId: Map<string, number>) => ({
  database,
  corpId,
  staffByUserId,
  accounts: new Map<string, AccountRef>(),
  securities: new Map<string, { id: number; currency: string }>(),
  touchedCustomers: new Set<number>(),
  /** Customers with new or changed money movements or transfers: MOT facts, though no summary change. */
  factsChanged: new Set<number>(),
});
type ImportContext = ReturnType<typeof importContext>;

interface FileSpec<Row> {
  file: string;
  schema: z.ZodType<Row>;
  /** The columns a file must have: the schema's fields that are not optional. */
  required: string[];
  apply(context: ImportContext, row: Row): Promise<RowOutcome>;
}

const spec = <Shape extends z.ZodRawShape>(
  file: string,
  schema: z.ZodObject<Shape>,
  apply: (context: ImportContext, row: z.output<z.ZodObject<Shape>>) => Promise<RowOutcome>,
): FileSpec<unknown> => ({
  file,
  schema,
  required: Object.keys(schema.shape).filter((column) => !z.safeParse(schema.shape[column]!, undefined).success),
  apply,
});

/** Files in the order they are applied: reference data first, then what refers to it. */
const IMPORT_FILES: FileSpec<unknown>[] = [
  spec('exchange_rates.csv', exchangeRateRow, applyExchangeRate),
  spec('prices.csv', priceRow, applyPrice),
  spec('customers.csv', customerRow, applyCustomer),
  spec('cash_balances.csv', cashBalanceRow, applyCashBalance),
  spec('holdings.csv', holdingRow, applyHolding),
  spec('trades.csv', tradeRow, applyTrade),
  spec('money_movements.csv', moneyMovementRow, applyMoneyMovement),
  spec('transfers.csv', transferRow, applyTransfer),
];

/** Imports the known CSV files in `folder`, row by row: a bad row is reported (file, line, reason), the rest carry on. */
export async function importFolder(database: DatabaseHandle, folder: string, options: { corpCode: string }): Promise<ImportReport> {
  const [corp] = await database.query<{ id: number }>('select id from corp where code = $1', [options.corpCode]);
  if (!corp) throw new Error(`corp ${options.corpCode} does not exist: start the server once or run the seed first`);
  const staffRows = await database.query<{ id: number; wecom_user_id: string }>('select id, wecom_user_id from staff where corp_id = $1', [
    corp.id,
  ]);
  const context = importContext(database, corp.id, new Map(staffRows.map((row) => [row.wecom_user_id, row.id])));
  const report: ImportReport = { files: [], errors: [], summariesRefreshed: 0, motEventsCreated: 0, motCardsQueued: 0 };
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
          const missing = fileSpec.required.filter((column) => !(column in record));
          const problem = utf8.badLines.has(1)
            ? NOT_UTF8
            : missing.length > 0 && `missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`;
          if (problem) {
            reject(1, `${problem}; file skipped`);
            break;
          }
        }
        fileReport.rows++;
        const badLine = utf8.firstBadLine(previousEnd + 1, info.lines);
        previousEnd = info.lines;
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
  report.summariesRefreshed = await refreshCustomerSummaries(database, ratesOrPricesChanged ? undefined : [...context.touchedCustomers]);
  // Imported facts are data changes: MOT rules run now rather than at the next daily sweep.
  if (ratesOrPricesChanged) report.motEventsCreated = (await runMotRules(database)).total;
  else {
    const changed = [...new Set([...context.touchedCustomers, ...context.factsChanged])];
    if (changed.length > 0) report.motEventsCreated = (await runMotForCustomers(database, changed)).total;
  }
  // The events this import raised: one WeCom card per manager, sent by the server's push ticker (ADR 0042).
  if (report.motEventsCreated > 0) report.motCardsQueued = (await enqueueMotPushes(database, { reason: 'import' })).cards;
  return report;
}

const outcomeOf = (rows: { inserted: boolean }[]): RowOutcome =>
  rows.length === 0 ? 'unchanged' : rows[0]!.inserted ? 'inserted' : 'updated';

/** The outcome of a write of one customer's row; a change marks the customer in `changed` (to refresh after the import). */
const outcomeMarking = (rows: { inserted: boolean }[], changed: Set<number>, customerId: number): RowOutcome => {
  if (rows.length > 0) changed.add(customerId);
  return outcomeOf(rows);
};

interface Upsert {
  table: string;
  /** The natural key (the conflict target's columns) and its values. */
  key: Record<string, unknown>;
  /** A partial unique index's predicate. */
  keyWhere?: string;
  /** Written on insert only (whose row it is). */
  fixed?: Record<string, unknown>;
  /** Compared with the stored row: a row is updated only when one of them differs. */
  values: Record<string, unknown>;
  alsoSet?: string;
  /** Columns returned besides `inserted`. */
  returning?: string;
  /** A month-partitioned table's partition key (ADR 0053): the row of the same key at another time moves, keeping its id. */
  partitionKey?: string;
}

/** Every write of the importer: an insert, or an update only where a value differs, so a repeat changes nothing (no row). */
function upsertChanged<Returned = object>(database: DatabaseHandle, upsert: Upsert) {
  const { table, key, fixed = {}, values, partitionKey } = upsert;
  const row = { ...key, ...fixed, ...values };
  const columns = Object.keys(row);
  const placeholder = (column: string) => `$${columns.indexOf(column) + 1}`;
  const compared = Object.keys(values);
  const conflictColumns = [...Object.keys(key), ...(partitionKey ? [partitionKey] : [])];
  const conflict = `(${conflictColumns.join(', ')})${upsert.keyWhere ? ` where ${upsert.keyWhere}` : ''}`;
  const set = [...compared.map((column) => `${column} = excluded.${column}`), ...(upsert.alsoSet ? [upsert.alsoSet] : [])];
  const stored = compared.map((column) => `${table}.${column}`);
  const incoming = compared.map((column) => `excluded.${column}`);
  const onConflict = `on conflict ${conflict} do update set ${set.join(', ')}
     where (${stored.join(', ')}) is distinct from (${incoming.join(', ')})
     returning ${upsert.returning ? `${upsert.returning}, ` : ''}`;
  if (!partitionKey)
    return database.query<Returned & { inserted: boolean }>(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map(placeholder).join(', ')})
       ${onConflict}(xmax = 0) as inserted`,
      Object.values(row),
    );
  // The same reference at another time: deleted and written again at its new time under its old id. A
  // partitioned table cannot return xmax: the row was inserted when it has the id drawn for it.
  const sameKey = Object.keys(key).map((column) => `${column} = ${placeholder(column)}`);
  return database.query<Returned & { inserted: boolean }>(
    `with moved as (
       delete from ${table} where ${sameKey.join(' and ')} and ${partitionKey} <> ${placeholder(partitionKey)}
          ${upsert.keyWhere ? `and ${upsert.keyWhere}` : ''} returning id
     ), drawn as (select nextval(pg_get_serial_sequence('${table}', 'id')) as id)
     insert into ${table} (id, ${columns.join(', ')})
     values (coalesce((select id from moved), (select id from drawn)), ${columns.map(placeholder).join(', ')})
     ${onConflict}${table}.id = (select id from drawn) as inserted`,
    Object.values(row),
  );
}

async function applyExchangeRate({ database }: ImportContext, row: z.infer<typeof exchangeRateRow>): Promise<RowOutcome> {
  return outcomeOf(
    await upsertChanged(database, {
      table: 'exchange_rate',
      key: { currency: row.currency, rate_date: row.rate_date },
      values: { rate: row.rate, source: row.source ?? 'import' },
    }),
  );
}

async function applyPrice({ database }: ImportContext, row: z.infer<typeof priceRow>): Promise<RowOutcome> {
  return outcomeOf(
    await upsertChanged(database, {
      table: 'security',
      key: { symbol: row.symbol },
      values: {
        market: row.market,
        name_cn: row.name_cn,
        // A file without Traditional names does not erase the ones the security table has.
        ...(row.name_hk === undefined ? {} : { name_hk: row.name_hk }),
        name_en: row.name_en,
        currency: row.currency,
        lot_size: row.lot_size,
        last_price: row.last_price,
        prev_close: row.prev_close,
        price_date: row.price_date,
      },
    }),
  );
}

async function applyCustomer(context: ImportContext, row: z.infer<typeof customerRow>): Promise<RowOutcome> {
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
  const changed = await upsertChanged<{ id: number }>(database, {
    table: 'customer',
    key: { corp_id: corpId, customer_no: row.customer_no },
    values: {
      staff_id: staffId,
      channel: row.channel,
      name_cn: row.name_cn,
      name_en: row.name_en,
      // Written with the name, so the folded and romanised forms find the client at once (ADR 0046).
      search_terms: searchTerms(row.name_cn),
      gender: row.gender ?? null,
      phone: phone?.phone ?? null,
      phone_digits: phone?.digits ?? null,
      email: row.email ?? null,
      id_doc_type: row.id_doc_type,
      id_doc_masked: maskIdNumber(row.id_doc_number),
      id_doc_last4: idNumberLast4(row.id_doc_number),
      id_doc_expiry: row.id_doc_expiry ?? null,
      birthday: row.birthday ?? null,
      risk_level: row.risk_level,
      risk_assessed_on: row.risk_assessed_on ?? null,
      status: row.status,
      open_date: row.open_date,
      closed_date: row.closed_date ?? null,
      tags: (row.tags ?? '')
        .split(';')
        .map((tag) => tag.trim())
        .filter(Boolean),
      remark: row.remark ?? null,
    },
    alsoSet: 'version = customer.version + 1, updated_at = now()',
    returning: 'id',
  });
  const [customer] = changed.length
    ? changed
    : await database.query<{ id: number }>('select id from customer where corp_id = $1 and customer_no = $2', [corpId, row.customer_no]);
  const customerId = Number(customer!.id);
  const accountChanged = await upsertChanged(database, {
    table: 'account',
    key: { corp_id: corpId, account_no: row.account_no },
    fixed: { customer_id: customerId },
    values: { type: row.account_type, status: row.status === 'closed' ? 'closed' : 'active', open_date: row.open_date },
  });
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

async function applyCashBalance(context: ImportContext, row: z.infer<typeof cashBalanceRow>): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  if (Number(row.balance) < 0 && account.type !== 'margin')
    throw new RowRejected(`balance ${row.balance} is negative on cash account ${row.account_no}`);
  const rows = await upsertChanged(context.database, {
    table: 'cash_balance',
    key: { account_id: account.id, currency: row.currency },
    values: { balance: row.balance },
  });
  return outcomeMarking(rows, context.touchedCustomers, account.customerId);
}

/** Holdings are the back office's position snapshot; quantity 0 closes the position. */
async function applyHolding(context: ImportContext, row: z.infer<typeof holdingRow>): Promise<RowOutcome> {
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
  const rows = await upsertChanged(context.database, {
    table: 'holding',
    key: { account_id: account.id, security_id: security.id },
    fixed: { customer_id: account.customerId },
    values: { quantity: row.quantity, avg_cost: row.avg_cost },
  });
  return outcomeMarking(rows, context.touchedCustomers, account.customerId);
}

/** Trades, money movements and transfers: facts of an account, keyed by the back office's own reference. */
function upsertFact(
  context: ImportContext,
  account: AccountRef,
  table: string,
  ref: string,
  partitionKey: 'traded_at' | 'occurred_at',
  values: Record<string, unknown>,
) {
  return upsertChanged(context.database, {
    table,
    key: { account_id: account.id, external_ref: ref },
    keyWhere: 'external_ref is not null',
    partitionKey,
    fixed: { customer_id: account.customerId },
    values,
  });
}

async function applyTrade(context: ImportContext, row: z.infer<typeof tradeRow>): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const security = await securityOf(context, row.symbol);
  if (row.currency !== security.currency)
    throw new RowRejected(`currency ${row.currency} does not match ${row.symbol}'s trading currency ${security.currency}`);
  if (row.settle_date < row.traded_at.slice(0, 10)) throw new RowRejected('settle_date is before traded_at');
  const amount = row.amount ?? (Math.round(row.quantity * Number(row.price) * 100) / 100).toFixed(2);
  const rows = await upsertFact(context, account, 'trade', row.trade_ref, 'traded_at', {
    security_id: security.id,
    side: row.side,
    quantity: row.quantity,
    price: row.price,
    amount,
    fee: row.fee,
    currency: row.currency,
    traded_at: row.traded_at,
    settle_date: row.settle_date,
  });
  return outcomeMarking(rows, context.touchedCustomers, account.customerId);
}

async function applyMoneyMovement(context: ImportContext, row: z.infer<typeof moneyMovementRow>): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const rows = await upsertFact(context, account, 'money_movement', row.movement_ref, 'occurred_at', {
    direction: row.direction,
    currency: row.currency,
    amount: row.amount,
    method: row.method,
    occurred_at: row.occurred_at,
  });
  return outcomeMarking(rows, context.factsChanged, account.customerId);
}

async function applyTransfer(context: ImportContext, row: z.infer<typeof transferRow>): Promise<RowOutcome> {
  const account = await accountOf(context, row.account_no);
  const security = await securityOf(context, row.symbol);
  const rows = await upsertFact(context, account, 'stock_transfer', row.transfer_ref, 'occurred_at', {
    security_id: security.id,
    direction: row.direction,
    quantity: row.quantity,
    counterparty: row.counterparty,
    occurred_at: row.occurred_at,
  });
  return outcomeMarking(rows, context.factsChanged, account.customerId);
}
