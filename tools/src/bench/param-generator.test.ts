import type { Endpoint } from '@broker/contract';
import { describe, expect, it } from 'vitest';
import { wireRequest } from './http-request';
import { searchTerms } from '@broker/server';
import { paramStream, seededRandom, type BookSample } from './param-generator';

/** A name's Chinese characters folded to Simplified, as the server compares them. */
const foldedName = (text: string) => searchTerms(text).split(' ')[0]!;
/** Each word of a romanised keyword begins a word of the name's romanisations, as the server tests it. */
const romanisedIn = (nameCn: string, keyword: string) => {
  const terms = searchTerms(nameCn);
  return keyword
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .every((word) => terms.includes(` ${word}`));
};
import { SCENARIO_ENDPOINTS, SCENARIO_NAMES, honestScenarios } from './scenarios';

const SURNAMES = [
  ['陈', 'Chan'],
  ['黄', 'Wong'],
  ['李', 'Lee'],
  ['张', 'Cheung'],
  ['王', 'Wang'],
] as const;
const GIVEN = [
  ['大', 'Tai'],
  ['文', 'Man'],
  ['小', 'Siu'],
  ['明', 'Ming'],
  ['美', 'Mei'],
  ['玲', 'Ling'],
] as const;

/** A book shaped like the seed's: Chinese names of 2–3 characters, "[English] Surname Given Given", 11-digit phones. */
function sampleBook(size: number): BookSample {
  const random = seededRandom(7);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const customers = Array.from({ length: size }, (_, index) => {
    const surname = pick(SURNAMES);
    const given = random() < 0.8 ? [pick(GIVEN), pick(GIVEN)] : [pick(GIVEN)];
    const english = random() < 0.4 ? `${pick(['Peter', 'Mary', 'John'])} ` : '';
    return {
      id: 1000 + index,
      customerNo: `C${String(1000 + index).padStart(8, '0')}`,
      nameCn: surname[0] + given.map((part) => part[0]).join(''),
      nameEn: `${english}${surname[1]} ${given.map((part) => part[1]).join(' ')}`,
      phoneDigits: index % 50 === 49 ? null : `852${String(90_000_000 + index * 7919).slice(0, 8)}`,
      idDocLast4: `${String.fromCharCode(65 + (index % 26))}${String(index % 1000).padStart(3, '0')}`,
      accountNos:
        index % 10 === 0
          ? []
          : [`8${String(index).padStart(8, '0')}`, ...(index % 3 === 0 ? [`8${String(index + 500_000).padStart(8, '0')}`] : [])],
    };
  });
  return {
    customers,
    channels: ['branch', 'online', 'wealth'],
    eventCustomerIds: customers.filter((_, index) => index % 4 === 0).map((customer) => customer.id),
    servedNames: customers.slice(0, 10).map(({ nameCn, nameEn }) => ({ nameCn, nameEn })),
    asOf: '2026-11-20',
    firstOpenDate: '2010-03-01',
    // Five years of a busy client's history.
    timelineCustomer: {
      id: 1000,
      firstAt: Date.parse('2021-11-20T01:30:00Z'),
      lastAt: Date.parse('2026-11-20T08:00:00Z'),
      maxId: 9_000_000,
    },
  };
}

const book = sampleBook(2000);
const draws = (scenario: string, count: number, seed = 1) => {
  const stream = paramStream(scenario, book, seed);
  return { inputs: Array.from({ length: count }, () => stream.next()), stream };
};

/** What the server would parse from the request as it goes over the wire. */
function parsedOnTheServer(scenario: (typeof SCENARIO_NAMES)[number], input: Record<string, unknown>) {
  const { endpoint }: { endpoint: Endpoint } = SCENARIO_ENDPOINTS[scenario];
  const wire = wireRequest(endpoint, input as never, {});
  const payload = wire.body !== undefined ? JSON.parse(wire.body) : Object.fromEntries(new URLSearchParams(wire.path.split('?')[1] ?? ''));
  return endpoint.request.safeParse(payload);
}

describe('the request parameter generator', () => {
  it.each(SCENARIO_NAMES)('%s: never gives the same parameters twice while the book holds new ones', (scenario) => {
    const { inputs, stream } = draws(scenario, 600);
    expect(stream.repeats).toBe(0);
    expect(new Set(inputs.map((input) => JSON.stringify(input))).size).toBe(inputs.length);
  });

  it.each(SCENARIO_NAMES)('%s: every request is valid against the contract as sent', (scenario) => {
    for (const input of draws(scenario, 400).inputs) {
      const parsed = parsedOnTheServer(scenario, input);
      expect(parsed.success, `${JSON.stringify(input)}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('gives the same sequence for the same seed, and another for another seed', () => {
    for (const scenario of SCENARIO_NAMES) {
      expect(draws(scenario, 50, 42).inputs).toEqual(draws(scenario, 50, 42).inputs);
      expect(draws(scenario, 50, 43).inputs).not.toEqual(draws(scenario, 50, 42).inputs);
    }
  });

  it('gives each scenario its own stream, whichever others run beside it', () => {
    const alone = honestScenarios(['getTrade'], book, 5)[0]!;
    const withOthers = honestScenarios(['search:name', 'getTrade', 'stat'], book, 5)[1]!;
    expect(Array.from({ length: 20 }, () => alone.next())).toEqual(Array.from({ length: 20 }, () => withOthers.next()));
  });

  it('draws keywords from the book: 1–3 Chinese characters, English names and their prefixes, 3–8 phone digits', () => {
    const names = draws('search:name', 500).inputs.map((input) => String(input.keyword));
    const chinese = names.filter((keyword) => /[\u4e00-\u9fff]/.test(keyword));
    const english = names.filter((keyword) => /[A-Za-z]/.test(keyword));
    expect(chinese.length).toBeGreaterThan(100);
    expect(english.length).toBeGreaterThan(100);
    for (const keyword of chinese) {
      expect([...keyword].length).toBeGreaterThanOrEqual(1);
      expect([...keyword].length).toBeLessThanOrEqual(3);
      // As stored, or in Traditional characters: the same name once folded (ADR 0046).
      expect(book.customers.some((customer) => foldedName(customer.nameCn).includes(foldedName(keyword)))).toBe(true);
    }
    expect(chinese.filter((keyword) => !book.customers.some((customer) => customer.nameCn.includes(keyword))).length).toBeGreaterThan(20);
    for (const keyword of english)
      expect(book.customers.some((customer) => customer.nameEn.includes(keyword) || romanisedIn(customer.nameCn, keyword))).toBe(true);
    // Romanisations the English name does not hold: pinyin, initials, the given name first.
    const romanisedOnly = english.filter(
      (keyword) => !book.customers.some((customer) => customer.nameEn.toLowerCase().includes(keyword.toLowerCase())),
    );
    expect(romanisedOnly.length).toBeGreaterThan(30);
    expect(romanisedOnly.some((keyword) => /^[a-z]{2,4}$/i.test(keyword))).toBe(true);
    // Whole "Surname Given" names after an English first name, and prefixes.
    expect(english.some((keyword) => book.customers.some((customer) => customer.nameEn.endsWith(` ${keyword}`)))).toBe(true);
    expect(english.some((keyword) => !book.customers.some((customer) => customer.nameEn.endsWith(keyword)))).toBe(true);

    for (const { keyword } of draws('search:phone', 300).inputs) {
      expect(String(keyword)).toMatch(/^\d{3,8}$/);
      expect(book.customers.some((customer) => customer.phoneDigits?.includes(String(keyword)))).toBe(true);
    }
    const accounts = new Set(book.customers.flatMap((customer) => customer.accountNos));
    const tails = new Set(book.customers.map((customer) => customer.idDocLast4));
    const numberKeys = new Set(book.customers.map((customer) => customer.customerNo.replace(/^C0*/, '')));
    let numbers = 0;
    for (const { keyword } of draws('search:account', 300).inputs) {
      const text = String(keyword);
      const isNumber = /^(c|C)?0*[1-9][0-9]*$/.test(text) && numberKeys.has(text.replace(/^[cC]?0*/, ''));
      if (isNumber) numbers += 1;
      expect(accounts.has(text.toUpperCase()) || tails.has(text.toUpperCase()) || isNumber).toBe(true);
    }
    expect(numbers).toBeGreaterThan(50);
  });

  it('combines filters with every sort and order, pages up to 500, and date ranges in order', () => {
    const inputs = draws('search:filters', 1000).inputs;
    for (const field of ['statuses', 'markets', 'channels', 'assetMin', 'assetMax', 'openDateFrom', 'openDateTo', 'kycBound', 'hasHolding'])
      expect(
        inputs.some((input) => field in input),
        field,
      ).toBe(true);
    const sorts = new Set(inputs.map((input) => JSON.stringify([input.sortBy, input.sortOrder])));
    expect(sorts.size).toBe(6);
    expect(Math.max(...inputs.map((input) => Number(input.pageNum)))).toBeGreaterThan(400);
    for (const input of inputs) if (input.openDateFrom && input.openDateTo) expect(input.openDateFrom <= input.openDateTo).toBe(true);
    for (const { dateFrom, dateTo } of draws('getTrade', 300).inputs) if (dateFrom && dateTo) expect(dateFrom <= dateTo).toBe(true);
  });

  it('counts the repeats once a small book has no new parameters left', () => {
    const small = { ...sampleBook(3) };
    const stream = paramStream('getProfile', small, 1);
    const ids = Array.from({ length: 5 }, () => stream.next().customerId);
    expect(new Set(ids.slice(0, 3)).size).toBe(3);
    expect(stream.repeats).toBe(2);
  });
});
