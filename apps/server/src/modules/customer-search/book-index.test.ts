import { describe, expect, it } from 'vitest';
import { BookIndex, BookTooVaried, centsText, walkIsCheaper, type IndexedCustomer } from './book-index';
import { lowerAsSql } from './book-texts';
import { boundCents, dayKey, type CustomerCriteria } from './customer-filters';
import { interpretKeyword, termsHoldWords } from './customer-keyword';
import { searchTerms } from '../../db/search-terms';

/**
 * BookIndex alone, without a database: the conversions it compares SQL's values with (cents, days,
 * bounds), its sort orders and ties, its changes, and the books it refuses. Its equivalence with
 * the SQL search over real books is book-index.equivalence.test.ts.
 */

const book = { corpId: 1, staffId: 1 };
const customer = (id: number, fields: Partial<IndexedCustomer> = {}): IndexedCustomer => ({
  id,
  channel: 'branch',
  status: 'active',
  nameCn: '陈大文',
  nameEn: 'CHAN Tai Man',
  searchTerms: null,
  phoneDigits: '85291234567',
  idDocLast4: '1234',
  assetCents: 0,
  openDate: '2020-01-01',
  lastTradeDate: null,
  heldMarkets: [],
  kycBound: false,
  accountNos: [],
  customerNo: `C${id}`,
  phone: '+852 9123 4567',
  idDocMasked: 'A12****4',
  riskLevel: 3,
  tags: [],
  ...fields,
});
const pageOf = (
  index: BookIndex,
  filters: Omit<CustomerCriteria, 'corpId' | 'staffId'> = {},
  sortBy: 'totalAssets' | 'openDate' | 'lastTrade' = 'totalAssets',
  sortOrder: 'asc' | 'desc' = 'desc',
  window = { pageNum: 1, pageSize: 50 },
) => index.page({ ...book, ...filters }, sortBy, sortOrder, window);

describe('centsText: whole cents as PostgreSQL prints a numeric sum of two places', () => {
  it.each([
    [0n, '0.00'],
    [5n, '0.05'],
    [100n, '1.00'],
    [12_345n, '123.45'],
    [-5n, '-0.05'],
    [-100n, '-1.00'],
    [-12_345n, '-123.45'],
    // Beyond a double's exact integers: a book's sum still prints to the cent.
    [9_007_199_254_740_993n, '90071992547409.93'],
    [123_456_789_012_345_678_901n, '1234567890123456789.01'],
    [-123_456_789_012_345_678_901n, '-1234567890123456789.01'],
  ])('%s → %s', (cents, text) => {
    expect(centsText(cents)).toBe(text);
  });
});

describe('dayKey: YYYY-MM-DD as a number in the same order', () => {
  it('keeps the order of days across months and years', () => {
    const days = ['1900-01-01', '1999-12-31', '2000-01-01', '2026-02-28', '2026-03-01', '2026-12-31', '2999-12-31'];
    const keys = days.map(dayKey);
    expect(keys).toEqual([19_000_101, 19_991_231, 20_000_101, 20_260_228, 20_260_301, 20_261_231, 29_991_231]);
    expect([...keys].sort((a, b) => a! - b!)).toEqual(keys);
  });

  it.each(['2026-2-28', '20260228', ' 2026-02-28', '2026-02-28 ', '2026-02-28T00:00:00Z', '26-02-28', '', 'infinity'])(
    'is undefined for %j (SQL answers instead)',
    (text) => {
      expect(dayKey(text)).toBeUndefined();
    },
  );
});

describe('boundCents: an HKD bound as whole cents, as PostgreSQL compares numeric with the number sent', () => {
  it.each([
    // [bound, lowest cents at least it ('up'), highest cents at most it ('down')]
    [0, 0, 0],
    [123.45, 12_345, 12_345],
    [0.29, 29, 29],
    [1.15, 115, 115],
    [1_000_000.07, 100_000_007, 100_000_007],
    [1e13, 1e15, 1e15],
    [100.005, 10_001, 10_000],
    [0.001, 1, 0],
    [-0.001, 0, -1],
    [-123.45, -12_345, -12_345],
    [-100.005, -10_000, -10_001],
    // 0.1 + 0.2 is sent as 0.30000000000000004: a client at exactly 0.30 is below it, one at 0.31 above.
    [0.1 + 0.2, 31, 30],
    // 17 significant digits: the decimal sent is just above 1000 HKD.
    [1000.0000000000001, 100_001, 100_000],
    [1e-7, 1, 0],
    [1e21, 1e23, 1e23],
  ])('%s HKD → %s cents up, %s cents down', (hkd, up, down) => {
    expect(boundCents(hkd, 'up')).toBe(up);
    expect(boundCents(hkd, 'down')).toBe(down);
  });

  it('is undefined for a bound that is not a finite number (SQL answers instead)', () => {
    expect(boundCents(Number.NaN, 'up')).toBeUndefined();
    expect(boundCents(Number.POSITIVE_INFINITY, 'down')).toBeUndefined();
  });

  it('selects by bounds in a page, a client at the bound included', () => {
    const index = new BookIndex('1', [
      customer(1, { assetCents: 30 }),
      customer(2, { assetCents: 31 }),
      customer(3, { assetCents: 12_345 }),
      customer(4, { assetCents: -5 }),
    ]);
    expect(pageOf(index, { assetMinHkd: 0.1 + 0.2 })).toEqual({ ids: [3, 2], total: 2 });
    expect(pageOf(index, { assetMaxHkd: 0.1 + 0.2 })).toEqual({ ids: [1, 4], total: 2 });
    expect(pageOf(index, { assetMinHkd: 123.45, assetMaxHkd: 123.45 })).toEqual({ ids: [3], total: 1 });
    expect(pageOf(index, { assetMinHkd: -0.05, assetMaxHkd: -0.05 })).toEqual({ ids: [4], total: 1 });
    expect(pageOf(index, { assetMinHkd: Number.NaN })).toBeUndefined();
  });
});

describe('lowerAsSql: lower case as ILIKE folds it', () => {
  it.each([
    ['CHAN Tai Man', 'chan tai man'],
    ['Zoë ÉMILE', 'zoë émile'],
    // JavaScript alone gives i + U+0307 and a final ς; PostgreSQL's lower() gives i and σ.
    ['İPEK', 'ipek'],
    ['Kim ΑΣ', 'kim ασ'],
    ['ΟΔΥΣΣΕΑΣ', 'οδυσσεασ'],
  ])('%s → %s', (text, lower) => {
    expect(lowerAsSql(text)).toBe(lower);
  });

  it('finds what ILIKE finds for those letters', () => {
    const index = new BookIndex('1', [customer(1, { nameEn: 'İPEK Yılmaz' }), customer(2, { nameEn: 'Kim ΑΣΕ' })]);
    expect(pageOf(index, { keyword: interpretKeyword('ipek') })).toEqual({ ids: [1], total: 1 });
    expect(pageOf(index, { keyword: interpretKeyword('KIM ΑΣ') })).toEqual({ ids: [2], total: 1 });
  });
});

describe('BookIndex pages', () => {
  const rows = [
    customer(5, { assetCents: 100, openDate: '2020-01-02', lastTradeDate: '2026-01-01' }),
    customer(3, { assetCents: 100, openDate: '2020-01-02', lastTradeDate: null }),
    customer(9, { assetCents: 200, openDate: '2019-12-31', lastTradeDate: '2026-01-01' }),
    customer(1, { assetCents: 100, openDate: '2021-06-30', lastTradeDate: null }),
    customer(7, { assetCents: -300, openDate: '2020-01-02', lastTradeDate: '2025-12-31' }),
  ];

  it.each([
    // Descending: key descending, ties by id ascending, no trade last; ascending is that reversed.
    ['totalAssets', 'desc', [9, 1, 3, 5, 7]],
    ['totalAssets', 'asc', [7, 5, 3, 1, 9]],
    ['openDate', 'desc', [1, 3, 5, 7, 9]],
    ['openDate', 'asc', [9, 7, 5, 3, 1]],
    ['lastTrade', 'desc', [5, 9, 7, 1, 3]],
    ['lastTrade', 'asc', [3, 1, 7, 9, 5]],
  ] as const)('orders by %s %s with ties by id', (sortBy, sortOrder, ids) => {
    const index = new BookIndex('1', rows);
    expect(pageOf(index, {}, sortBy, sortOrder)).toEqual({ ids, total: 5 });
    // The same order whichever way the page is found: through a keyword's few candidates, or walking.
    const keyword = interpretKeyword('陈大文');
    const many = new BookIndex('1', [...rows, ...Array.from({ length: 200 }, (_, n) => customer(1000 + n, { nameCn: '李小龙' }))]);
    expect(pageOf(many, { keyword }, sortBy, sortOrder)).toEqual({ ids, total: 5 });
    expect(pageOf(index, { keyword }, sortBy, sortOrder)).toEqual({ ids, total: 5 });
  });

  it('pages through the order, and past its end', () => {
    const index = new BookIndex('1', rows);
    expect(pageOf(index, {}, 'totalAssets', 'desc', { pageNum: 2, pageSize: 2 })).toEqual({ ids: [3, 5], total: 5 });
    expect(pageOf(index, {}, 'totalAssets', 'desc', { pageNum: 3, pageSize: 2 })).toEqual({ ids: [7], total: 5 });
    expect(pageOf(index, {}, 'totalAssets', 'desc', { pageNum: 4, pageSize: 2 })).toEqual({ ids: [], total: 5 });
  });

  it('applies changes: a row changed, one gone, one new, one back', () => {
    const index = new BookIndex('1', rows);
    index.apply('2', [3, 7, 11], [customer(3, { assetCents: 500, nameEn: 'WONG Siu Ming' }), customer(11, { assetCents: 150 })]);
    expect(index.version).toBe('2');
    expect(index.rows).toBe(5);
    expect(pageOf(index)).toEqual({ ids: [3, 9, 11, 1, 5], total: 5 });
    // The old name's grams still point at the row; the row's text now decides.
    expect(pageOf(index, { keyword: interpretKeyword('Chan Tai') })).toEqual({ ids: [9, 11, 1, 5], total: 4 });
    expect(pageOf(index, { keyword: interpretKeyword('siu ming') })).toEqual({ ids: [3], total: 1 });
    index.apply('3', [7], [customer(7, { assetCents: 1 })]);
    expect(pageOf(index, {}, 'totalAssets', 'asc')).toEqual({ ids: [7, 5, 1, 11, 9, 3], total: 6 });
  });

  it('drops an account number that moved to another client', () => {
    const index = new BookIndex('1', [customer(1, { accountNos: ['HK01AB'] }), customer(2)]);
    expect(pageOf(index, { keyword: interpretKeyword('hk01ab') })).toEqual({ ids: [1], total: 1 });
    index.apply('2', [1, 2], [customer(1), customer(2, { accountNos: ['HK01AB'] })]);
    expect(pageOf(index, { keyword: interpretKeyword('Hk01aB') })).toEqual({ ids: [2], total: 1 });
  });
});

describe('BookIndex stat', () => {
  it('sums cents exactly past a double’s exact integers, per channel, most clients first', () => {
    const large = 2 ** 52 - 1;
    const index = new BookIndex('1', [
      customer(1, { channel: 'online', assetCents: large, status: 'active', openDate: '2026-11-01' }),
      customer(2, { channel: 'online', assetCents: large, status: 'dormant', openDate: '2026-10-31' }),
      customer(3, { channel: 'online', assetCents: large, status: 'active' }),
      customer(4, { channel: 'branch', assetCents: -1 }),
      customer(5, { channel: 'branch', assetCents: -250 }),
      customer(6, { channel: 'wealth', assetCents: 7 }),
      customer(7, { channel: 'ifa', assetCents: 7 }),
    ]);
    expect(index.stat(book, '2026-11-01')).toEqual([
      // 3 × 4503599627370495 = 13510798882111485, which a double cannot hold.
      { channel: 'online', clients: 3, totalAssetsHkd: '135107988821114.85', active: 2, newThisMonth: 1 },
      { channel: 'branch', clients: 2, totalAssetsHkd: '-2.51', active: 2, newThisMonth: 0 },
      { channel: 'ifa', clients: 1, totalAssetsHkd: '0.07', active: 1, newThisMonth: 0 },
      { channel: 'wealth', clients: 1, totalAssetsHkd: '0.07', active: 1, newThisMonth: 0 },
    ]);
    expect(index.stat({ ...book, channels: ['nope'] }, '2026-11-01')).toEqual([]);
    expect(index.stat(book, 'November')).toBeUndefined();
  });
});

describe('BookTooVaried', () => {
  it('refuses a book of more codes than its compact columns hold', () => {
    const markets = Array.from({ length: 31 }, (_, n) => `M${n}`);
    expect(() => new BookIndex('1', [customer(1, { heldMarkets: markets })])).toThrow(BookTooVaried);
    expect(() => new BookIndex('1', [customer(1, { heldMarkets: markets.slice(0, 30) })])).not.toThrow();
    const channels = (count: number) => Array.from({ length: count }, (_, n) => customer(n + 1, { channel: `c${n}` }));
    expect(() => new BookIndex('1', channels(256))).toThrow(BookTooVaried);
    expect(() => new BookIndex('1', channels(255))).not.toThrow();
    const statuses = Array.from({ length: 256 }, (_, n) => customer(n + 1, { status: `s${n}` }));
    expect(() => new BookIndex('1', statuses)).toThrow(BookTooVaried);
  });

  it('refuses a change that brings one code too many (the store then reads the book again)', () => {
    const index = new BookIndex('1', [customer(1, { heldMarkets: Array.from({ length: 30 }, (_, n) => `M${n}`) })]);
    expect(() => index.apply('2', [2], [customer(2, { heldMarkets: ['JP'] })])).toThrow(BookTooVaried);
  });
});

describe('a keyword page: the matches sorted, or marked and found along the sort order', () => {
  // 3,000 clients, every 25th a WONG: 120 matches, few enough for the candidate path (×16 < 3,000 is false
  // for 200+), many enough that walking the order finds a first page sooner than sorting them.
  const rows = Array.from({ length: 3000 }, (_, index) =>
    customer(index + 1, {
      nameEn: index % 25 === 0 ? `WONG Client ${index}` : `CHAN Client ${index}`,
      assetCents: ((index * 7919) % 3001) * 100,
      openDate: `20${String(10 + (index % 15)).padStart(2, '0')}-0${1 + (index % 9)}-1${index % 10}`,
      lastTradeDate: index % 3 === 0 ? null : `2026-0${1 + (index % 9)}-2${index % 10}`,
    }),
  );
  const index = new BookIndex('1', rows);
  const wong = rows.filter((row) => row.nameEn.startsWith('WONG'));
  const keyOf = {
    totalAssets: (row: IndexedCustomer) => row.assetCents,
    openDate: (row: IndexedCustomer) => dayKey(row.openDate)!,
    lastTrade: (row: IndexedCustomer) => (row.lastTradeDate ? dayKey(row.lastTradeDate)! : -1),
  };

  it.each([
    ['totalAssets', 'desc', 1, 20],
    ['totalAssets', 'asc', 1, 20],
    ['openDate', 'desc', 3, 20],
    ['lastTrade', 'asc', 2, 50],
    ['lastTrade', 'desc', 6, 20],
    ['openDate', 'asc', 7, 20],
  ] as const)('%s %s, page %i of %i: the same rows in the same order as sorting every match', (sortBy, sortOrder, pageNum, pageSize) => {
    const expected = [...wong].sort((a, b) => keyOf[sortBy](b) - keyOf[sortBy](a) || a.id - b.id);
    if (sortOrder === 'asc') expected.reverse();
    const start = (pageNum - 1) * pageSize;
    const page = pageOf(index, { keyword: interpretKeyword('wong') }, sortBy, sortOrder, { pageNum, pageSize });
    expect(page?.total).toBe(120);
    expect(page?.ids).toEqual(expected.slice(start, start + pageSize).map((row) => row.id));
  });

  it('chooses the walk for a first page of many matches and the sort for a few or a deep page', () => {
    expect(walkIsCheaper(7000, 20, 125_000)).toBe(true);
    expect(walkIsCheaper(120, 20, 3000)).toBe(true);
    expect(walkIsCheaper(30, 20, 125_000)).toBe(false);
    expect(walkIsCheaper(7000, 7000, 1_000_000)).toBe(false);
    expect(walkIsCheaper(1, 20, 10)).toBe(false);
  });
});

describe('a ranked keyword page along the sort order: exact, then name prefix, then the rest (ADR 0046 §5)', () => {
  // 3,000 clients: every 25th a WONG (a name that begins with the keyword), every 25th from the 5th a
  // CHIWONG (the keyword inside a word), one whose ID document ends WONG and one holding account WONG (exact).
  const rows = Array.from({ length: 3000 }, (_, index) =>
    customer(index + 1, {
      nameEn: index % 25 === 0 ? `WONG Client ${index}` : index % 25 === 5 ? `CHIWONG Client ${index}` : `CHAN Client ${index}`,
      idDocLast4: index === 1234 ? 'WONG' : '1234',
      accountNos: index === 2345 ? ['WONG'] : [],
      assetCents: ((index * 7919) % 3001) * 100,
      openDate: `20${String(10 + (index % 15)).padStart(2, '0')}-0${1 + (index % 9)}-1${index % 10}`,
    }),
  );
  const index = new BookIndex('1', rows);
  const tierOf = (row: IndexedCustomer) =>
    row.idDocLast4 === 'WONG' || row.accountNos.includes('WONG') ? 0 : /^wong|\swong/i.test(row.nameEn) ? 1 : 2;
  const matches = rows.filter((row) => tierOf(row) < 2 || /wong/i.test(row.nameEn));
  const keyOf = {
    totalAssets: (row: IndexedCustomer) => row.assetCents,
    openDate: (row: IndexedCustomer) => dayKey(row.openDate)!,
  };

  it.each([
    ['totalAssets', 'desc', 1, 20],
    ['totalAssets', 'asc', 1, 20],
    ['openDate', 'desc', 6, 20],
    ['totalAssets', 'desc', 7, 20],
    ['openDate', 'asc', 12, 20],
    ['totalAssets', 'asc', 13, 20],
  ] as const)('%s %s, page %i of %i: the rows of ranking every match', (sortBy, sortOrder, pageNum, pageSize) => {
    const inOrder = (a: IndexedCustomer, b: IndexedCustomer) => keyOf[sortBy](b) - keyOf[sortBy](a) || a.id - b.id;
    const expected = [...matches].sort((a, b) => tierOf(a) - tierOf(b) || (sortOrder === 'desc' ? inOrder(a, b) : inOrder(b, a)));
    const start = (pageNum - 1) * pageSize;
    const page = pageOf(index, { keyword: interpretKeyword('wong') }, sortBy, sortOrder, { pageNum, pageSize });
    expect(matches).toHaveLength(242);
    expect(page?.total).toBe(242);
    expect(page?.ids).toEqual(expected.slice(start, start + pageSize).map((row) => row.id));
    // Walking the order is the path these pages take (sorting is for few matches).
    expect(walkIsCheaper(242, start + pageSize, 3000)).toBe(true);
  });
});

describe('romanised keywords: the postings of whole reading words, intersected (ADR 0046, "Cost")', () => {
  // English names that hold none of the typed words, so only the romanised arm finds anyone.
  const named = (id: number, nameCn: string, fields: Partial<IndexedCustomer> = {}) =>
    customer(id, { nameCn, nameEn: '', searchTerms: searchTerms(nameCn), assetCents: id * 100, ...fields });
  const names = ['黃志明', '黄志明', '王志明', '陈志明', '黄明', '陈伟文', '張偉', '欧阳志强', '李志', '黄智'];
  const rows = names.map((nameCn, at) => named(at + 1, nameCn));
  const index = new BookIndex('1', rows);
  /** What `termsHoldWords` says of each row: the rule both search paths state (ADR 0046 §2). */
  const holding = (keyword: string, among = rows) =>
    among
      .filter(
        (row) =>
          row.searchTerms &&
          termsHoldWords(row.searchTerms.substring(row.searchTerms.indexOf(' ')), interpretKeyword(keyword)!.romanised!.wordStarts),
      )
      .map((row) => row.id);
  const found = (keyword: string, on = index) => {
    const page = pageOf(on, { keyword: interpretKeyword(keyword) }, 'totalAssets', 'asc', { pageNum: 1, pageSize: 1000 });
    const clients = on.stat({ ...book, keyword: interpretKeyword(keyword) }, '2026-11-01')?.reduce((sum, row) => sum + row.clients, 0);
    expect(clients).toBe(page?.total);
    return page?.ids;
  };

  it.each([
    // Multi-word, any order and any separator.
    ['wong chi', [1, 2, 3, 10]],
    ['chi wong', [1, 2, 3, 10]],
    ['chi-ming wong', [1, 2, 3]],
    ['ming chi wong', [1, 2, 3]],
    ['huang zhiming', [1, 2]],
    ['Zhi Ming Huang', [1, 2]],
    // Prefixes of each word.
    ['won ch', [1, 2, 3, 10]],
    ['hua zhim', [1, 2]],
    ['w c m', [1, 2, 3, 6]],
    // Initials, surname first or last.
    ['wcm', [1, 2, 3]],
    ['cmw', [1, 2, 3]],
    ['cww', [6]],
    // A two-character surname read as one.
    ['auyeung chi', [8]],
    ['ouyang', [8]],
    // Words whose postings overlap: the same word twice, a word and its own prefix, a prefix of the joined given name.
    ['wong wong', [1, 2, 3, 5, 10]],
    ['chi chiming', [1, 2, 3, 4]],
    ['ch chim', [1, 2, 3, 4]],
    ['lee chi', [9]],
    ['nobody', []],
  ])('%s finds %j, as termsHoldWords says, page and stat alike', (keyword, ids) => {
    expect(holding(keyword)).toEqual(ids);
    expect(found(keyword)).toEqual(ids);
  });

  it('finds Traditional and Simplified alike, and their readings', () => {
    expect(found('黃志明')).toEqual([1, 2]);
    expect(found('黄志明')).toEqual([1, 2]);
    expect(found('张伟')).toEqual([7]);
    expect(found('cheung wai')).toEqual([7]);
    expect(found('zhang wei')).toEqual([7]);
  });

  it('follows changes: a renamed client loses its old words, gains the new ones, and terms not yet computed match nothing', () => {
    const changing = new BookIndex('1', rows);
    expect(found('wong chi', changing)).toEqual([1, 2, 3, 10]);
    changing.apply('2', [1, 4], [named(1, '陈大文'), { ...named(4, '陈志明'), searchTerms: null }]);
    // Row 1's old words are still in their postings; its terms now decide.
    expect(found('wong chi', changing)).toEqual([2, 3, 10]);
    expect(found('chan tai', changing)).toEqual([1]);
    expect(found('chan chi', changing)).toEqual([]);
    changing.apply('3', [1, 11], [named(1, '黃志明'), named(11, '黃志文')]);
    expect(found('wong chi', changing)).toEqual([1, 2, 3, 10, 11]);
    expect(found('chan tai', changing)).toEqual([]);
    expect(found('wcm', changing)).toEqual([1, 2, 3, 11]);
    expect(found('wong chi man', changing)).toEqual([11]);
  });

  it('answers a keyword asked twice the same, and another keyword in between its own', () => {
    expect(found('wong')).toEqual([1, 2, 3, 5, 10]);
    expect(found('chan')).toEqual([4, 6]);
    expect(found('wong')).toEqual([1, 2, 3, 5, 10]);
    expect(pageOf(index, { keyword: interpretKeyword('wong'), statuses: ['dormant'] })).toEqual({ ids: [], total: 0 });
  });

  it('confirms on the candidates a word whose postings are far larger than they are (a single letter)', () => {
    // 400 clients: every 100th a 黄志明 (WONG CHI MING), every 100th after the 50th a 黄明 (WONG MING: no word
    // in C), the rest surnamed 陈 (CHAN), so the postings of the words in C hold nearly every client.
    const nameAt = (at: number) => (at % 100 === 0 ? '黄志明' : at % 100 === 50 ? '黄明' : `陈${names[at % names.length]!.slice(1)}`);
    const many = Array.from({ length: 400 }, (_, at) => named(at + 1, nameAt(at)));
    const big = new BookIndex('1', many);
    expect(found('wong c', big)).toEqual([1, 101, 201, 301]);
    expect(found('c wong', big)).toEqual([1, 101, 201, 301]);
    expect(found('wong', big)).toEqual([1, 51, 101, 151, 201, 251, 301, 351]);
    expect(found('c', big)).toEqual(holding('c', many));
  });
});
