import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { contract, envelopeSchema, type Endpoint } from '@broker/contract';
import { validData } from '@broker/contract/testing';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './response-serializer';

const compile = (schema: z.ZodType, checkResponses = false) =>
  responseSerializerCompiler({ checkResponses })({ schema, method: 'GET', url: '/test', httpStatus: '200' });

const endpoints = Object.values(contract).flatMap((area) => Object.values(area as Record<string, Endpoint>));

describe('responses written from the contract (ADR 0033)', () => {
  test.each(endpoints.map((endpoint) => [endpoint.path, endpoint] as const))(
    '%s: any valid answer is written as JSON.stringify writes what the contract keeps',
    (_path, endpoint) => {
      const schema = envelopeSchema(endpoint.response);
      const write = compile(schema);
      fc.assert(
        fc.property(validData(schema), (data) => {
          const written = write(data);
          expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(z.encode(schema, data as never))));
        }),
        { numRuns: 25 },
      );
    },
  );

  const schema = envelopeSchema(contract.customer.getProfile.response);
  const profile = fc.sample(validData(schema), { numRuns: 1, seed: 7 })[0] as { data: Record<string, unknown> };

  test('a property the contract does not name is not written (nothing outside the contract leaks)', () => {
    const leaking = { ...profile, data: { ...profile.data, phoneDigits: '91234567', idNumber: 'A1234567' } };
    const written = compile(schema)(leaking);
    expect(written).not.toContain('phoneDigits');
    expect(written).not.toContain('A1234567');
  });

  test('a missing required property is refused, not written as an answer', () => {
    const { customerNo: _dropped, ...rest } = profile.data;
    expect(() => compile(schema)({ ...profile, data: rest })).toThrow(/customerNo/);
  });

  test("an MOT event's facts carry the names the rules give them (camelCase): another name fails a suite, `__proto__` is not passed on", () => {
    const detail = envelopeSchema(contract.mot.getTodoTaskDetail.response);
    const answer = fc.sample(validData(detail), { numRuns: 1, seed: 11 })[0] as { data: { event: Record<string, unknown> } };
    // As node-postgres reads jsonb: JSON.parse, which keeps `__proto__` as an own key.
    const withFacts = (json: string) => ({ ...answer, data: { ...answer.data, event: { ...answer.data.event, facts: JSON.parse(json) } } });
    const factsWritten = (json: string) =>
      (JSON.parse(compile(detail, true)(withFacts(json))) as { data: { event: { facts: unknown } } }).data.event.facts;
    const refusal = (json: string) => {
      try {
        compile(detail, true)(withFacts(json));
      } catch (error) {
        return (error as { cause: z.ZodError }).cause.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      }
      return 'written';
    };
    for (const json of ['{"amount_hkd": 1}', '{"AmountHkd": 1}', '{"": 1}'])
      expect(refusal(json), json).toMatch(/^data\.event\.facts\..*: Invalid key in record$/);
    expect(factsWritten('{"__proto__": 1, "amountHkd": 250000}')).toEqual({ amountHkd: 250000 });
    expect(factsWritten('{"amountHkd": 250000, "currency": "USD", "warning": null}')).toEqual({
      amountHkd: 250000,
      currency: 'USD',
      warning: null,
    });
  });

  test('with checkResponses (tests), a value of the wrong type is refused with the contract issue', () => {
    const wrong = { ...profile, data: { ...profile.data, totalAssetsHkd: null } };
    let thrown: unknown;
    try {
      compile(schema, true)(wrong);
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
    expect(JSON.stringify((thrown as { cause: unknown }).cause)).toContain('totalAssetsHkd');
    expect(JSON.parse(compile(schema, true)(profile))).toEqual(JSON.parse(JSON.stringify(profile)));
  });
});
