import { sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client';
import { staffBookChange } from '../../db/schema';
import { rowsQuery, selection, selectionWithValues, selectQuery, selectRows, tableAlias, tableAs } from '../../db/sql-rows';
import { BookIndex, BookTooVaried, type IndexedCustomer } from './book-index';
import { a, accountA, b, bookSummaryB, bookVersionV, c, customerC, k, kycBindingK, v } from './customer-tables';

const ch = tableAlias(staffBookChange, 'ch');
const bookChangeCh = tableAs(ch);

/** Smaller books load while the request waits; a larger one loads in the background while SQL answers. */
export const LOAD_INLINE_BELOW_ROWS = 5_000;
/** More changed customers than this since the index's version: reload the book rather than the rows. */
const MAX_CHANGED_ROWS = 5_000;
const RETRY_UNSUITABLE_MS = 10 * 60_000;
const RETRY_FAILED_LOAD_MS = 5_000;

export const indexedColumns = selection({
  id: sql<number>`${c.id}::float8`,
  channel: c.channel,
  status: c.status,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  searchTerms: c.searchTerms,
  phoneDigits: c.phoneDigits,
  idDocLast4: c.idDocLast4,
  assetCents: sql<number>`(${c.totalAssetsHkd} * 100)::float8`,
  openDate: sql<string>`${c.openDate}::text`,
  lastTradeDate: sql<string | null>`${c.lastTradeDate}::text`,
  heldMarkets: c.heldMarkets,
  kycBound: sql<boolean>`exists (select 1 from ${kycBindingK} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId})`,
  accountNos: sql<string[]>`array(select ${a.accountNo} from ${accountA} where ${a.customerId} = ${c.id} order by ${a.id})`,
  customerNo: c.customerNo,
  phone: c.phone,
  idDocMasked: c.idDocMasked,
  riskLevel: c.riskLevel,
  tags: c.tags,
});

const versionOf = (corpId: number, staffId: number) =>
  sql<string>`coalesce((select ${v.version} from ${bookVersionV} where ${v.corpId} = ${corpId} and ${v.staffId} = ${staffId}), 0)::text`;

/** This process's use of the book indexes since start (read by /readyz and the benchmark). */
export const bookIndexCounters = { served: 0, askedSql: 0, loads: 0, refreshes: 0, reloads: 0, loading: 0 };

interface Book {
  index: BookIndex | undefined;
  /** Every request of the book waits for the same load or catch-up. */
  pending: Promise<void> | undefined;
  /** Resolves once a load has read the book's size (and so knows whether to be waited for). */
  sized: Promise<void> | undefined;
  small: boolean;
  /** Until then SQL answers (too large, too varied, load failed). */
  unsuitableUntil: number;
}

/**
 * The book indexes this process has searched (ADR 0035), least recently used out beyond `maxRows` customers.
 * Callers check each answer against `staff_book_version`; `refresh` catches a changed book up from its log.
 */
export class BookIndexStore {
  private readonly books: LRUCache<string, Book>;

  constructor(
    private readonly db: Database,
    readonly maxRows: number,
  ) {
    this.books = new LRUCache<string, Book>({
      maxSize: Math.max(1, maxRows),
      sizeCalculation: (book) => Math.max(1, book.index?.rows ?? 1),
    });
  }

  /** Undefined when SQL must answer (loading in the background, too large); callers check the version. */
  async indexFor(corpId: number, staffId: number): Promise<BookIndex | undefined> {
    if (this.maxRows <= 0) return undefined;
    const key = `${corpId}:${staffId}`;
    let book = this.books.get(key);
    if (!book) {
      book = { index: undefined, pending: undefined, sized: undefined, small: false, unsuitableUntil: 0 };
      this.books.set(key, book);
    }
    if (book.index) return book.index;
    if (Date.now() < book.unsuitableUntil) return undefined;
    // The load never rejects: a failure is kept as book.unsuitableUntil.
    if (!book.pending) void this.load(key, book, corpId, staffId);
    await book.sized;
    if (book.small) await book.pending;
    return book.index;
  }

  /** Waits for the book's load or catch-up under way, if any (tests, warm-up). */
  async settled(corpId: number, staffId: number): Promise<void> {
    await this.books.get(`${corpId}:${staffId}`)?.pending;
  }

  /** Reads the customers logged since `stale`, or the whole book when the log cannot say (a gap, a bulk change). */
  refresh(corpId: number, staffId: number, stale: BookIndex): Promise<void> {
    const key = `${corpId}:${staffId}`;
    const book = this.books.get(key);
    if (!book || book.index !== stale || book.pending) return book?.pending ?? Promise.resolve();
    const pending: Promise<void> = this.catchUp(key, book, corpId, staffId, stale).finally(() => {
      if (book.pending === pending) book.pending = undefined;
    });
    book.pending = pending;
    return pending;
  }

  private async catchUp(key: string, book: Book, corpId: number, staffId: number, stale: BookIndex): Promise<void> {
    const since = stale.version;
    const changes = (scope: SQL) =>
      sql`from ${bookChangeCh} where ${ch.corpId} = ${corpId} and ${ch.staffId} = ${staffId} and ${ch.version} > ${since}::bigint ${scope}`;
    const logged = sql`and ${ch.customerId} is not null`;
    const [delta] = await selectRows(
      this.db,
      selectQuery(
        selectionWithValues({
          version: versionOf(corpId, staffId),
          versions: sql<number>`(select count(distinct ${ch.version}) ${changes(sql``)})::float8`,
          wholeBook: sql<boolean>`exists (select 1 ${changes(sql`and ${ch.customerId} is null`)})`,
          changedIds: sql<number[]>`array(select distinct ${ch.customerId}::float8 ${changes(logged)} limit ${MAX_CHANGED_ROWS + 1})`,
          // Distinct: a client logged by many versions would fill the limit, and `apply` would take the others as gone.
          rows: sql<IndexedCustomer[]>`(select coalesce(json_agg(t), '[]'::json) from (select ${indexedColumns} from ${customerC}
               where ${c.corpId} = ${corpId} and ${c.staffId} = ${staffId}
                 and ${c.id} in (select distinct ${ch.customerId} ${changes(logged)} limit ${MAX_CHANGED_ROWS + 1})) t)`,
        }),
        sql``,
      ),
    ).catch(() => []);
    // A failed read (its one row always comes otherwise): the book is read again on its next search.
    if (!delta) {
      book.index = undefined;
      return;
    }
    const { version, versions, wholeBook, changedIds, rows } = delta;
    const steps = BigInt(version) - BigInt(since);
    // Each bump logs a row: a version missing from the log is a change missing.
    const complete = steps >= 0n && BigInt(versions) === steps && !wholeBook && changedIds.length <= MAX_CHANGED_ROWS;
    if (complete) {
      try {
        stale.apply(version, changedIds, rows);
        bookIndexCounters.refreshes += 1;
        // Set again so the cache weighs the book by its rows now.
        this.books.set(key, book);
        return;
      } catch {
        // BookTooVaried: the book is read again below.
      }
    }
    bookIndexCounters.reloads += 1;
    book.index = undefined;
    const reload = this.load(key, book, corpId, staffId);
    await book.sized;
    if (book.small) await reload;
  }

  private load(key: string, book: Book, corpId: number, staffId: number): Promise<void> {
    let sizeKnown!: () => void;
    book.sized = new Promise((resolve) => (sizeKnown = resolve));
    const run = async () => {
      bookIndexCounters.loading += 1;
      try {
        const [size] = await selectRows(
          this.db,
          selectQuery(
            selectionWithValues({
              clients: sql<number>`(select coalesce(sum(${b.clients}), 0) from ${bookSummaryB} where ${b.staffId} = ${staffId} and ${b.corpId} = ${corpId})::float8`,
            }),
            sql``,
          ),
        );
        book.small = size!.clients < LOAD_INLINE_BELOW_ROWS;
        sizeKnown();
        if (size!.clients > this.maxRows) {
          book.unsuitableUntil = Date.now() + RETRY_UNSUITABLE_MS;
          return;
        }
        const [loaded] = await selectRows(
          this.db,
          rowsQuery<{ version: string; rows: IndexedCustomer[] }>(
            sql`select ${versionOf(corpId, staffId)} as "version",
                       (select coalesce(json_agg(t), '[]'::json) from (select ${indexedColumns} from ${customerC}
                         where ${c.corpId} = ${corpId} and ${c.staffId} = ${staffId}) t) as "rows"`,
          ),
        );
        book.index = new BookIndex(loaded!.version, loaded!.rows);
        bookIndexCounters.loads += 1;
        // Set again so the cache weighs the book by its rows (and evicts others if need be).
        this.books.set(key, book);
      } catch (error) {
        book.index = undefined;
        book.unsuitableUntil = Date.now() + (error instanceof BookTooVaried ? RETRY_UNSUITABLE_MS : RETRY_FAILED_LOAD_MS);
      } finally {
        bookIndexCounters.loading -= 1;
        sizeKnown();
      }
    };
    const pending: Promise<void> = run().finally(() => {
      if (book.pending === pending) book.pending = undefined;
    });
    book.pending = pending;
    return pending;
  }
}
