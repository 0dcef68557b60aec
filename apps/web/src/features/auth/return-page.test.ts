import { describe, expect, test } from 'vitest';
import { returnPageOf } from './return-page';

// The authorise URL and its /wxEntry return address are built by the server now
// (apps/server/src/modules/auth/authorize-url.ts, tested in auth.routes.test.ts and sign-in-state.routes.test.ts).

describe('return page', () => {
  test('is where the user is', () => {
    expect(returnPageOf({ pathname: '/mot/home', search: '?tab=2' })).toEqual({ redirectPage: '/mot/home?tab=2', relauchType: null });
    expect(returnPageOf({ pathname: '/', search: '' }).redirectPage).toBe('/client/manage/list');
  });
  test('is the query redirectPage when relauchType is reLogin or pushPage', () => {
    expect(returnPageOf({ pathname: '/mot/home', search: '?relauchType=pushPage&redirectPage=%2Fmot%2FeventDetail' })).toEqual({
      redirectPage: '/mot/eventDetail',
      relauchType: 'pushPage',
    });
    expect(returnPageOf({ pathname: '/mot/home', search: '?relauchType=reLogin&redirectPage=%2Fkyc%2Findex' }).redirectPage).toBe(
      '/kyc/index',
    );
    expect(returnPageOf({ pathname: '/mot/home', search: '?relauchType=other&redirectPage=%2Fkyc%2Findex' }).redirectPage).toBe(
      '/mot/home?relauchType=other&redirectPage=%2Fkyc%2Findex',
    );
  });
  test('from /wxEntry is the redirectPage it was going to', () => {
    expect(returnPageOf({ pathname: '/wxEntry', search: '?code=x&redirectPage=%2Fkyc%2Findex' }).redirectPage).toBe('/kyc/index');
  });
});

describe('a return page from a hostile address', () => {
  test('is the client list: the one safe-navigation rule decides (ADR 0013)', () => {
    for (const hostile of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/a b',
      '/x\u0007',
      `/${'a'.repeat(3000)}`,
    ]) {
      const query = `?relauchType=reLogin&redirectPage=${encodeURIComponent(hostile)}`;
      expect(returnPageOf({ pathname: '/mot/home', search: query }).redirectPage, hostile).toBe('/client/manage/list');
    }
  });
});
