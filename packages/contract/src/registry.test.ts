import { describe, expect, test } from 'vitest';
import { commonErrorCodesOf, contract, endpoints, ErrorCode, errorCodesOf, httpStatusOf, type Endpoint } from './index';

const areaEntries = Object.entries(contract).flatMap(([area, members]) =>
  Object.entries(members as Record<string, Endpoint>).map(([name, endpoint]) => ({ area, name, endpoint })),
);

describe('contract areas', () => {
  test('every endpoint is in exactly one area, under its flat name', () => {
    // A name in two areas would be overwritten silently in the flat list.
    expect(areaEntries.map(({ name }) => name).sort()).toEqual(Object.keys(endpoints).sort());
    for (const { name, endpoint } of areaEntries) expect(endpoints[name as keyof typeof endpoints]).toBe(endpoint);
  });

  test('no two endpoints share a method and path', () => {
    const routes = areaEntries.map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

describe('declared error codes', () => {
  test('an endpoint declares only its own codes: none that every endpoint answers, none twice, never success', () => {
    for (const { name, endpoint } of areaEntries) {
      const common = new Set(commonErrorCodesOf(endpoint));
      expect(
        endpoint.errors.filter((code) => common.has(code)),
        name,
      ).toEqual([]);
      expect(new Set(endpoint.errors).size, name).toBe(endpoint.errors.length);
      expect(endpoint.errors, name).not.toContain(ErrorCode.OK);
    }
  });

  test('every code an endpoint can answer is an error status, sessions only where one is needed', () => {
    for (const { name, endpoint } of areaEntries) {
      const codes = errorCodesOf(endpoint);
      for (const code of codes) expect(httpStatusOf[code], `${name} ${code}`).toBeGreaterThanOrEqual(400);
      expect(codes.includes(ErrorCode.LOGIN_INVALID), name).toBe(endpoint.auth);
    }
  });
});
