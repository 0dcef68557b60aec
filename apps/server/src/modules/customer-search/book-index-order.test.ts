import { describe, expect, it } from 'vitest';
import { BookIndex, type IndexedCustomer } from './book-index';
import type { SortField, SortOrder } from './customer-search.repository';

/** A seeded generator, so a failure names the book it happened on. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function customer(id: number, next: () => number): IndexedCustomer {
  // Few distinct values, so many rows tie on every sort key and the id decides.
  const day = (offset: number) => `2024-0${1 + Math.floor(next() * 3)}-1${offset}`;
  return {
    id,
    channel: next() < 0.5 ? 'online' : 'branch',
    status: next() < 0.8 ? 'active' : 'dormant',
    nameCn: '陈大文',
    nameEn: 'CHAN Tai Man',
    searchTerms: null,
    phoneDigits: null,
    idDocLast4: '1234',
    assetCents: Math.floor(next() * 5) * 100_000,
    openDate: day(Math.floor(next() * 3)),
    lastTradeDate: next() < 0.3 ? null : day(Math.floor(next() * 3)),
    heldMarkets: [],
    kycBound: false,
    accountNos: [],
    customerNo: `C${id}`,
    phone: null,
    idDocMasked: 'A12****4',
    riskLevel: 3,
    tags: [],
  };
}

const SORTS: [SortField, SortOrder][] = [
  ['totalAssets', 'desc'],
  ['totalAssets', 'asc'],
  ['openDate', 'desc'],
  ['openDate', 'asc'],
  ['lastTrade', 'desc'],
  ['lastTrade', 'asc'],
];

/** Every id of the book in a sort's order, as the list pages it. */
const everyId = (index: BookIndex, [sortBy, sortOrder]: [SortField, SortOrder]) =>
  index.page({ corpId: 1, staffId: 1 }, sortBy, sortOrder, { pageNum: 1, pageSize: 10_000 })!.ids;

describe('BookIndex keeps its sort orders through changes', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`moves changed, new and removed customers to where a fresh build puts them (seed ${seed})`, () => {
      const next = random(seed);
      const rows = Array.from({ length: 400 }, (_, at) => customer(at + 1, next));
      const index = new BookIndex('1', rows);
      // Build every order first, so the changes below patch them rather than rebuild them.
      for (const sort of SORTS) everyId(index, sort);
      let nextId = 401;
      for (let round = 2; round <= 30; round += 1) {
        const changed = new Set<number>();
        const count = 1 + Math.floor(next() * (round % 7 === 0 ? 120 : 10));
        for (let change = 0; change < count; change += 1) {
          const roll = next();
          if (roll < 0.15) {
            const id = nextId++;
            rows.push(customer(id, next));
            changed.add(id);
          } else if (roll < 0.3 && rows.length > 0) {
            const gone = rows.splice(Math.floor(next() * rows.length), 1)[0]!;
            changed.add(gone.id);
          } else if (rows.length > 0) {
            const at = Math.floor(next() * rows.length);
            rows[at] = customer(rows[at]!.id, next);
            changed.add(rows[at].id);
          }
        }
        const current = rows.filter((row) => changed.has(row.id));
        index.apply(String(round), [...changed], current);
        const fresh = new BookIndex(String(round), rows);
        for (const sort of SORTS) expect(everyId(index, sort), `round ${round}, ${sort.join(' ')}`).toEqual(everyId(fresh, sort));
        expect(index.rows).toBe(rows.length);
      }
    });
  }
});
