import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { endpoints as contractEndpoints } from '@broker/contract';
import { endpoints } from './contract';
import { mismatchIn, responseMismatch } from './response-check';
import { validData } from '@broker/contract/testing';

const CORP_CONFIG = {
  corpCode: 'fxhl',
  corpId: 'wwcorp',
  corpName: 'FX',
  agents: [{ agentCode: 'khzl', agentId: '1000002' }],
  oauthBase: '/wecom',
  emulator: true,
};

describe('response check (the contract compiled to JSON Schema at build time)', () => {
  test('accepts data that matches, and unknown keys (zod strips them too)', () => {
    expect(responseMismatch(endpoints.getCorpConfig, CORP_CONFIG)).toBeUndefined();
    expect(responseMismatch(endpoints.getCorpConfig, { ...CORP_CONFIG, addedLater: 1 })).toBeUndefined();
  });

  test('names where the data first differs', () => {
    expect(responseMismatch(endpoints.getCorpConfig, { ...CORP_CONFIG, agents: [{ agentCode: 'nope', agentId: '1' }] })).toBe(
      'data.agents[0].agentCode: expected one of ["khzl","khgl","mot"], got "nope"',
    );
    expect(responseMismatch(endpoints.getCorpConfig, { ...CORP_CONFIG, emulator: undefined })).toBe(
      'data.emulator: expected boolean, got undefined',
    );
    const { corpName: _missing, ...withoutName } = CORP_CONFIG;
    expect(responseMismatch(endpoints.getCorpConfig, withoutName)).toBe('data.corpName: missing');
    expect(responseMismatch(endpoints.getCorpConfig, { ...CORP_CONFIG, corpCode: 'FX HL' })).toMatch(/^data\.corpCode: does not match/);
    expect(responseMismatch({ method: 'GET', path: '/api/nowhere' }, {})).toBe('GET /api/nowhere is not an endpoint of the contract');
  });

  test('numbers, integers, nulls, records', () => {
    const schema = {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 0, maximum: 10 },
        id: { type: 'number', exclusiveMinimum: 0 },
        note: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
        byKey: { type: 'object', propertyNames: { type: 'string', pattern: '^[a-z]+$' }, additionalProperties: { type: 'number' } },
      },
      required: ['count'],
    };
    expect(mismatchIn(schema, { count: 3, id: 0.5, note: null, byKey: { a: 1 } }, 'data')).toBeUndefined();
    expect(mismatchIn(schema, { count: 3.5 }, 'data')).toBe('data.count: expected integer, got 3.5');
    expect(mismatchIn(schema, { count: 11 }, 'data')).toBe('data.count: above 10');
    expect(mismatchIn(schema, { count: 1, id: 0 }, 'data')).toBe('data.id: not above 0');
    expect(mismatchIn(schema, { count: 1, note: 'long' }, 'data')).toBe('data.note: longer than 3 / data.note: expected null, got "long"');
    expect(mismatchIn(schema, { count: 1, byKey: { a: 'x' } }, 'data')).toBe('data.byKey.a: expected number, got "x"');
    expect(mismatchIn(schema, { count: 1, byKey: { B: 1 } }, 'data')).toMatch(/^data\.byKey key "B": does not match/);
  });

  // Every endpoint: the compiled schema and the contract's zod schema agree on what they refuse.
  test.each(Object.keys(contractEndpoints))('%s: refuses what zod refuses', (name) => {
    const contract = contractEndpoints[name as keyof typeof contractEndpoints];
    const wire = endpoints[name as keyof typeof endpoints];
    for (const junk of [undefined, 'x', 12.5, [{}], { unexpected: true }]) {
      const zodRefuses = !contract.response.safeParse(junk).success;
      expect(responseMismatch(wire, junk) !== undefined, `${name} on ${JSON.stringify(junk)}`).toBe(zodRefuses);
    }
  });

  // Every endpoint: whatever its zod schema accepts (as it arrives: through JSON), the compiled schema accepts too.
  test.each(Object.keys(contractEndpoints))('%s: accepts what zod accepts', (name) => {
    const contract = contractEndpoints[name as keyof typeof contractEndpoints];
    const wire = endpoints[name as keyof typeof endpoints];
    fc.assert(
      fc.property(validData(contract.response), (value) => {
        const data: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
        expect(contract.response.safeParse(data).success, `zod on ${JSON.stringify(data)}`).toBe(true);
        expect(responseMismatch(wire, data)).toBeUndefined();
      }),
      { numRuns: 50 },
    );
  });
});
