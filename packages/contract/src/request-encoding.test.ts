import { describe, expect, test } from 'vitest';
import { endpoints } from './registry';
import { encodeRequest, queryStringOf, requestHeaders } from './request-encoding';

const signedIn = { corp: 'fxhl', token: 'tok-1' };

describe('encodeRequest', () => {
  test('query: the input after the path, arrays as the key repeated, null and undefined left out, no body', () => {
    const encoded = encodeRequest(
      endpoints.getTodoClients,
      { date: '2026-11-20', pageSize: 5, rules: ['birthday', 'idExpiry'], rule: null, x: undefined },
      signedIn,
    );
    expect(encoded).toEqual({
      method: 'GET',
      url: `${endpoints.getTodoClients.path}?date=2026-11-20&pageSize=5&rules=birthday&rules=idExpiry`,
      headers: { 'agent-code': 'mot', 'corp-code': 'fxhl', 'broker-token': 'tok-1' },
    });
    expect(encodeRequest(endpoints.getDefaultCcy, undefined, signedIn).url).toBe(endpoints.getDefaultCcy.path);
    expect(encodeRequest(endpoints.hasKyc, { externalUserId: 'a b&c=d' }, signedIn).url).toBe(
      `${endpoints.hasKyc.path}?externalUserId=a+b%26c%3Dd`,
    );
  });

  test('json: the input as JSON text with its content type', () => {
    const encoded = encodeRequest(endpoints.searchCustomers, { keyword: '陳', statuses: ['active'], pageNum: 2 }, signedIn);
    expect(encoded.method).toBe('POST');
    expect(encoded.url).toBe(endpoints.searchCustomers.path);
    expect(encoded.headers).toEqual({
      'agent-code': 'khgl',
      'corp-code': 'fxhl',
      'broker-token': 'tok-1',
      'content-type': 'application/json',
    });
    expect(JSON.parse(encoded.body as string)).toEqual({ keyword: '陳', statuses: ['active'], pageNum: 2 });
    expect(encodeRequest(endpoints.kycSearch, undefined, signedIn).body).toBe('{}');
  });

  test('form: the input as form-data, its content type left to fetch (the boundary)', () => {
    const file = new Blob(['x']);
    const encoded = encodeRequest(endpoints.setFold, { isFold: 'true', many: [1, 2], none: null, file }, signedIn);
    expect(encoded.headers['content-type']).toBeUndefined();
    const form = encoded.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.keys()]).toEqual(['isFold', 'many', 'many', 'file']);
    expect(form.getAll('many')).toEqual(['1', '2']);
    expect(form.get('file')).toBeInstanceOf(Blob);
  });

  test('none: no body, no query, no content type, whatever the input', () => {
    const encoded = encodeRequest(endpoints.signOut, { ignored: 1 }, signedIn);
    expect(encoded).toEqual({
      method: 'POST',
      url: endpoints.signOut.path,
      headers: { 'agent-code': 'khzl', 'corp-code': 'fxhl', 'broker-token': 'tok-1' },
    });
  });
});

describe('requestHeaders', () => {
  test('the token goes to authenticated endpoints only', () => {
    expect(requestHeaders(endpoints.getCorpConfig, signedIn)).toEqual({ 'agent-code': endpoints.getCorpConfig.agent, 'corp-code': 'fxhl' });
    expect(requestHeaders(endpoints.getProfile, { corp: 'fxhl', token: '' })).not.toHaveProperty('broker-token');
  });

  test('the caller may name another app, or none, and leave out the corp', () => {
    expect(requestHeaders(endpoints.getDefaultCcy, { ...signedIn, agent: 'mot' })['agent-code']).toBe('mot');
    expect(requestHeaders(endpoints.getDefaultCcy, { corp: null, agent: null })).toEqual({});
    expect(requestHeaders({ auth: true }, signedIn)).toEqual({ 'corp-code': 'fxhl', 'broker-token': 'tok-1' });
  });
});

test('queryStringOf: pairs in order, encoded as a form would', () => {
  expect(queryStringOf({ a: 1, b: [true, false], c: '', d: null })).toBe('a=1&b=true&b=false&c=');
});
