import { sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client';
import { staffBookChange } from '../../db/schema';
import { rowsQuery, selection, selectionWithValues, selectQuery, selectRows, tableAlias, tableAs } from '../../db/sql-rows';
import { BookIndex, BookTooVaried, type IndexedCustomer } from './book-index';
import { a, accountA, b, bookSummaryB, bookVersionV, c, customerC, k, kycBindingK, v } from './customer-tables';

const ch = tableAlias(staffBookChange, 'ch');
const bookChangeCh = tableAs(ch);

/**
 * Books up to this size are loaded by the request that first needs them; a larger book loads in
 * the background while SQL answers its searches (ADR 0035).
 */
export const LOAD_INLINE_BELOW_ROWS = 5_000;
/** More changed customers than this since the index's version: reload the book rather than the rows. */
const MAX_CHANGED_ROWS = 5_000;
/** A book too large for the budget (or too varied) is asked of SQL, and looked at again after this long. */
const RETRY_UNSUITABLE_MS = 10 * 60_000;
/** A load that failed (the database away) is tried again after this long; SQL answers meanwhile. */
const RETRY_FAILED_LOAD_MS = 5_000;

/** What the index keeps of a customer, read with the schema's column names. */
const indexedColumns = selection({
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

/**
 * This process's use of the in-memory book indexes since start (read by /readyz and the benchmark):
 * searches and stats `served` from memory or `askedSql`; books loaded, caught up from the log,
 * reloaded; and `loading`, the loads under way now.
 */
export const bookIndexCounters = { served: 0, askedSql: 0, loads: 0, refreshes: 0, reloads: 0, loading: 0 };

interface Book {
  index: BookIndex | undefined;
  /** A load or catch-up under way: every request of the book waits for the same one. */
  pending: Promise<void> | undefined;
  /** Resolves once a load has read the book's size (and so knows whether to be waited for). */
  sized: Promise<void> | undefined;
  /** Small enough to load while the request waits (`LOAD_INLINE_BELOW_ROWS`). */
  small: boolean;
  /** Set when the book is not indexed (too large, too varied, load failed): SQL answers until then. */
  unsuitableUntil: number;
}

/**
 * The in-memory search indexes of the books this process has searched (ADR 0035), least recently
 * used first out beyond `maxRows` customers in all. An index is only ever used at the version the
 * database holds: each answer is checked against `staff_book_version` read after it was computed,
 * and a changed book is brought up to date from `staff_book_change` (migration 0022) before it
 * answers again.
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

  /**
   * The book's index when it can answer now; undefined when SQL must (loading in the background,
   * too large). The index may be behind the database: callers check the version.
   */
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
    // A large book goes on loading after SQL has answered this request. The load never rejects: a failure
    // is kept as book.unsuitableUntil.
    if (!book.pending) void this.load(key, book, corpId, staffId);
    await book.sized;
    if (book.small) await book.pending;
    return book.index;
  }

  /** Waits for the book's load or catch-up under way, if any (tests, warm-up). */
  async settled(corpId: number, staffId: number): Promise<void> {
    await this.books.get(`${corpId}:${staffId}`)?.pending;
  }

  /**
   * Brings the book's index from `stale` to the database's current version: the customers logged
   * since are read again, or the whole book when the log cannot say (a gap, a bulk change, a TRUNCATE).
   * Afterwards the book's index is current, or absent while a large book reloads in the background.
   */
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
    let delta: Delta | undefined;
    try {
      [delta] = await selectRows(
        this.db,
        selectQuery(
          selectionWithValues({
            version: versionOf(corpId, staffId),
            versions: sql<number>`(select count(distinct ${ch.version}) ${changes(sql``)})::float8`,
            wholeBook: sql<boolean>`exists (select 1 ${changes(sql`and ${ch.customerId} is null`)})`,
            changedIds: sql<number[]>`array(select distinct ${ch.customerId}::float8 ${changes(logged)} limit ${MAX_CHANGED_ROWS + 1})`,
            // Distinct, as changedIds: a client logged by many versions would otherwise fill the limit
            // and crowd others out, and `apply` would take those for clients who left the book.
            rows: sql<IndexedCustomer[]>`(select coalesce(json_agg(t), '[]'::json) from (select ${indexedColumns} from ${customerC}
               where ${c.corpId} = ${corpId} and ${c.staffId} = ${staffId}
                 and ${c.id} in (select distinct ${ch.customerId} ${changes(logged)} limit ${MAX_CHANGED_ROWS + 1})) t)`,
          }),
          sql``,
        ),
      );
    } catch {
      // SQL answers meanwhile; the next search of the book tries again.
      book.index = undefined;
      return;
    }
    const { version, versions, wholeBook, changedIds, rows } = delta!;
    const steps = BigInt(version) - BigInt(since);
    // Every version after ours must be in the log (each bump logs a row), or some change is missing.
    const complete = steps >= 0n && BigInt(versions) === steps && !wholeBook && changedIds.length <= MAX_CHANGED_ROWS;
    if (complete) {
      try {
        stale.apply(version, changedIds, rows);
        bookIndexCounters.refreshes += 1;
        // Set again so the cache weighs the book by its rows now.
        this.books.set(key, book);
        return;
      } catch {
        // A code the compact columns cannot hold (BookTooVaried): the book is read again below.
      }
    }
    bookIndexCounters.reloads += 1;
    book.index = undefined;
    const reload = this.load(key, book, corpId, staffId);
    await book.sized;
    if (book.small) await reload;
  }

  /** Reads the whole book into a new index; `book.sized` resolves once its size is known. */
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
        // Too varied: not worth trying again soon. Anything else (the database away): soon.
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

interface Delta {
  version: string;
  versions: number;
  wholeBook: boolean;
  changedIds: number[];
  rows: IndexedCustomer[];
}
