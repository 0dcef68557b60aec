import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { contract, envelopeSchema, type Endpoint } from '@broker/contract';
import { validData } from '@broker/contract/testing';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './response-serializer';

const compile = (schema: z.ZodType, checkResponses = false) =>
  responseSerializerCompiler({ checkResponses })({ schema, method: 'GET', url: '/test', httpStatus: '200' } as never);

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
